/* SPDX-License-Identifier: GPL-2.0 */
/* A small JSON reader for meta.json: parse to a tree, look values up. */
#ifndef CDEVBENCH_JSON_H
#define CDEVBENCH_JSON_H

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY,
		 JSON_OBJECT };

struct json {
	enum json_type type;
	char *key;		/* member name inside an object */
	char *string;		/* JSON_STRING */
	double number;		/* JSON_NUMBER, JSON_BOOL */
	struct json *child;	/* first element or member */
	struct json *next;	/* next sibling */
};

/* Parse a whole document; NULL and a message in err on a syntax error. */
struct json *json_parse(const char *text, char *err, int errlen);
void json_free(struct json *j);
/* The member of an object by name, or NULL. */
const struct json *json_get(const struct json *obj, const char *key);
/* A string member, or fallback when missing or not a string. */
const char *json_get_string(const struct json *obj, const char *key,
			    const char *fallback);

#endif
