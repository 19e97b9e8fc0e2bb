// SPDX-License-Identifier: GPL-2.0
/* A small JSON reader for meta.json: recursive descent, no \u decoding
 * beyond ASCII (meta.json holds ASCII only). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"

struct parser {
	const char *p;
	char *err;
	int errlen;
};

static struct json *parse_value(struct parser *ps);

static void skip_space(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static void *fail(struct parser *ps, const char *what)
{
	if (!ps->err[0])
		snprintf(ps->err, ps->errlen, "%s near \"%.20s\"", what, ps->p);
	return NULL;
}

static struct json *new_node(enum json_type type)
{
	struct json *j = calloc(1, sizeof(*j));

	if (!j)
		abort();
	j->type = type;
	return j;
}

static char *parse_string(struct parser *ps)
{
	size_t cap = 16, len = 0;
	char *s = malloc(cap);

	if (!s)
		abort();
	ps->p++;	/* opening quote */
	while (*ps->p && *ps->p != '"') {
		char c = *ps->p++;

		if (c == '\\') {
			c = *ps->p++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':
				c = (char)strtol((char[]){ ps->p[0], ps->p[1],
					ps->p[2], ps->p[3], 0 }, NULL, 16);
				ps->p += 4;
				break;
			case '"': case '\\': case '/': break;
			default:
				free(s);
				return fail(ps, "bad escape in string");
			}
		}
		if (len + 2 > cap) {
			s = realloc(s, cap *= 2);
			if (!s)
				abort();
		}
		s[len++] = c;
	}
	if (*ps->p != '"') {
		free(s);
		return fail(ps, "unterminated string");
	}
	ps->p++;
	s[len] = '\0';
	return s;
}

/* Members of an object or elements of an array, up to the closing char. */
static struct json *parse_children(struct parser *ps, struct json *parent,
				   char close, int with_keys)
{
	struct json **tail = &parent->child;

	ps->p++;
	skip_space(ps);
	if (*ps->p == close) {
		ps->p++;
		return parent;
	}
	for (;;) {
		char *key = NULL;
		struct json *v;

		skip_space(ps);
		if (with_keys) {
			if (*ps->p != '"')
				break;
			key = parse_string(ps);
			skip_space(ps);
			if (!key || *ps->p != ':') {
				free(key);
				break;
			}
			ps->p++;
		}
		v = parse_value(ps);
		if (!v) {
			free(key);
			break;
		}
		v->key = key;
		*tail = v;
		tail = &v->next;
		skip_space(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			return parent;
		}
		break;
	}
	json_free(parent);
	return fail(ps, with_keys ? "malformed object" : "malformed array");
}

static struct json *parse_value(struct parser *ps)
{
	struct json *j;
	char *end;

	skip_space(ps);
	switch (*ps->p) {
	case '{':
		return parse_children(ps, new_node(JSON_OBJECT), '}', 1);
	case '[':
		return parse_children(ps, new_node(JSON_ARRAY), ']', 0);
	case '"':
		j = new_node(JSON_STRING);
		j->string = parse_string(ps);
		if (!j->string) {
			free(j);
			return NULL;
		}
		return j;
	}
	if (!strncmp(ps->p, "true", 4) || !strncmp(ps->p, "false", 5)) {
		j = new_node(JSON_BOOL);
		j->number = *ps->p == 't';
		ps->p += j->number ? 4 : 5;
		return j;
	}
	if (!strncmp(ps->p, "null", 4)) {
		ps->p += 4;
		return new_node(JSON_NULL);
	}
	j = new_node(JSON_NUMBER);
	j->number = strtod(ps->p, &end);
	if (end == ps->p) {
		free(j);
		return fail(ps, "unexpected character");
	}
	ps->p = end;
	return j;
}

struct json *json_parse(const char *text, char *err, int errlen)
{
	struct parser ps = { text, err, errlen };
	struct json *j;

	err[0] = '\0';
	j = parse_value(&ps);
	if (!j)
		return NULL;
	skip_space(&ps);
	if (*ps.p) {
		json_free(j);
		return fail(&ps, "trailing characters");
	}
	return j;
}

void json_free(struct json *j)
{
	while (j) {
		struct json *next = j->next;

		json_free(j->child);
		free(j->key);
		free(j->string);
		free(j);
		j = next;
	}
}

const struct json *json_get(const struct json *obj, const char *key)
{
	const struct json *c;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (c = obj->child; c; c = c->next)
		if (!strcmp(c->key, key))
			return c;
	return NULL;
}

const char *json_get_string(const struct json *obj, const char *key,
			    const char *fallback)
{
	const struct json *v = json_get(obj, key);

	return v && v->type == JSON_STRING ? v->string : fallback;
}
