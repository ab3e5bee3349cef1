/* SPDX-License-Identifier: MIT */
/*
 * json_path.h - dotted-path access to a parsed snapshot for the
 * integration tests ("memory.used_bytes"), failing the current cmocka
 * test when a key is missing or of the wrong type. Include after
 * <cmocka.h> and <cjson/cJSON.h>.
 */
#ifndef GPUTOP_TEST_JSON_PATH_H
#define GPUTOP_TEST_JSON_PATH_H

#include <stdio.h>
#include <string.h>

static inline cJSON *get(const cJSON *obj, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	const cJSON *cur = obj;
	for (char *tok = strtok(buf, "."); tok && cur; tok = strtok(NULL, "."))
		cur = cJSON_GetObjectItemCaseSensitive(cur, tok);
	if (!cur)
		fail_msg("missing key %s", path);
	return (cJSON *)cur;
}

static inline double num(const cJSON *obj, const char *path)
{
	cJSON *v = get(obj, path);
	if (!cJSON_IsNumber(v))
		fail_msg("%s is not a number", path);
	return v->valuedouble;
}

static inline const char *str(const cJSON *obj, const char *path)
{
	cJSON *v = get(obj, path);
	if (!cJSON_IsString(v))
		fail_msg("%s is not a string", path);
	return v->valuestring;
}

#endif
