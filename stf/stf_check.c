// SPDX-License-Identifier: Apache-2.0
/*
 * stf_check.c: an output packet against an STF expect line, as p4c's
 * compare_pkt does it: the expected nibbles are a prefix of the packet,
 * '*' matches any nibble, a final '$' forbids extra bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stf.h"

static void msgf(char *msg, size_t msglen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void msgf(char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, msglen, fmt, ap);
	va_end(ap);
}

void stf_hex(char *buf, size_t buflen, const unsigned char *data, size_t len, size_t max_bytes)
{
	size_t i, o = 0, n = len < max_bytes ? len : max_bytes;

	if (buflen == 0)
		return;
	for (i = 0; i < n && o + 3 < buflen; i++)
		o += (size_t)snprintf(buf + o, buflen - o, "%02x", data[i]);
	if (n < len && o + 4 <= buflen)
		o += (size_t)snprintf(buf + o, buflen - o, "...");
	buf[o] = '\0';
}

static int nibble(const unsigned char *data, size_t i)
{
	return i % 2 ? data[i / 2] & 0xf : data[i / 2] >> 4;
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

int stf_compare(const struct stf_stmt *exp, const unsigned char *data, size_t len, char *msg,
		size_t msglen)
{
	size_t i, b, have = 2 * len;
	char hex[2 * STF_HEX_BYTES + 8];

	if (!exp->has_data)
		return 0;
	for (i = 0; i < exp->ndata && i < have; i++) {
		if (exp->data[i] == '*' || hexval(exp->data[i]) == nibble(data, i))
			continue;
		b = i / 2;
		msgf(msg, msglen, "byte %zu (nibble %zu) expected %.*s got %02x", b, i,
		     exp->ndata > 2 * b + 1 ? 2 : 1, exp->data + 2 * b, data[b]);
		return 1;
	}
	if (have < exp->ndata) {
		stf_hex(hex, sizeof(hex), data, len, STF_HEX_BYTES);
		msgf(msg, msglen, "packet too short: got %zu bytes, expected at least %zu (got %s)",
		     len, (exp->ndata + 1) / 2, hex);
		return 1;
	}
	if (exp->exact && have > exp->ndata) {
		b = (exp->ndata + 1) / 2;
		stf_hex(hex, sizeof(hex), data + b, len - b, STF_HEX_BYTES);
		msgf(msg, msglen, "packet too long: got %zu bytes, expected exactly %zu (extra %s)",
		     len, b, hex);
		return 1;
	}
	return 0;
}

