/* SPDX-License-Identifier: Apache-2.0 */
/* pisa_value.c: BMv2 CLI value syntax (see pisa_value.h). */
#include "pisa_value.h"

#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pisa_image.h"
#include "pisa_switch.h"

static int digit_val(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A' + 10;
	return 99;
}

/* v = v * base + d over 128 bits; non-zero on overflow */
static int mul_add(uint8_t v[PISA_VALUE_BYTES], unsigned base, unsigned d)
{
	unsigned carry = d;
	int i;

	for (i = PISA_VALUE_BYTES - 1; i >= 0; i--) {
		unsigned x = v[i] * base + carry;

		v[i] = (uint8_t)x;
		carry = x >> 8;
	}
	return carry != 0;
}

int pisa_value_fits(const uint8_t v[PISA_VALUE_BYTES], unsigned width)
{
	unsigned full = (PISA_VALUE_MAX_BITS - width) / 8;	/* bytes that must be 0 */
	unsigned part = (PISA_VALUE_MAX_BITS - width) % 8;
	unsigned i;

	if (width >= PISA_VALUE_MAX_BITS)
		return 1;
	for (i = 0; i < full; i++)
		if (v[i])
			return 0;
	return part == 0 || !(v[full] >> (8 - part));
}

/* Python int(s, 0), non-negative, into 128 bits. */
static int parse_int0(const char *s, uint8_t out[PISA_VALUE_BYTES], const char **why)
{
	unsigned base = 10;
	int neg = 0, ndig = 0, prev_us = 0, overflow = 0;
	const char *p = s;

	memset(out, 0, PISA_VALUE_BYTES);
	*why = "could not cast to integer, try in hex with 0x prefix";
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (p[0] == '0' && p[1] && strchr("xXoObB", p[1])) {
		base = (p[1] == 'x' || p[1] == 'X') ? 16 : (p[1] == 'o' || p[1] == 'O') ? 8 : 2;
		p += 2;
		if (*p == '_')	/* "0x_1f" is valid Python */
			p++;
	} else if (p[0] == '0') {
		/* decimal with a leading zero: only zeros allowed */
		for (; *p; p++) {
			if (*p == '_' && !prev_us && p[1]) {
				prev_us = 1;
				continue;
			}
			if (*p != '0')
				return -PISA_E_INVAL;
			prev_us = 0;
		}
		return prev_us ? -PISA_E_INVAL : 0;
	}
	for (; *p; p++) {
		int d;

		if (*p == '_') {
			if (prev_us || ndig == 0 || !p[1])
				return -PISA_E_INVAL;
			prev_us = 1;
			continue;
		}
		d = digit_val(*p);
		if (d >= (int)base)
			return -PISA_E_INVAL;
		prev_us = 0;
		ndig++;
		overflow |= mul_add(out, base, (unsigned)d);
	}
	if (ndig == 0)
		return -PISA_E_INVAL;
	if (neg) {
		int i, nz = 0;

		for (i = 0; i < PISA_VALUE_BYTES; i++)
			nz |= out[i];
		if (nz) {
			*why = "negative values are not allowed";
			return -PISA_E_RANGE;
		}
	}
	if (overflow) {
		*why = "value is too large";
		return -PISA_E_RANGE;
	}
	return 0;
}

/* Python int(s) in base 10 (digits only here), at most max */
int pisa_value_parse_dec(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	const char *p = s;

	if (*p == '+')
		p++;
	if (!*p)
		return -PISA_E_INVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -PISA_E_INVAL;
		if (x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -PISA_E_RANGE;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (x > max)
		return -PISA_E_RANGE;
	*v = x;
	return 0;
}

int pisa_value_parse_float(const char *s, double *v)
{
	char *end;
	double d;

	/* strtod also reads C99 hex floats ("0x1p3"), which Python's float() refuses */
	if (!*s || strpbrk(s, "xX"))
		return -PISA_E_INVAL;
	d = strtod(s, &end);
	if (*end || !isfinite(d))
		return -PISA_E_INVAL;
	*v = d;
	return 0;
}

static int parse_ipv4(const char *s, uint8_t out[PISA_VALUE_BYTES])
{
	unsigned part = 0, val = 0, ndig = 0;
	const char *p;

	for (p = s;; p++) {
		if (*p >= '0' && *p <= '9') {
			val = val * 10 + (unsigned)(*p - '0');
			if (++ndig > 3 || val > 255)
				return -1;
		} else if (*p == '.' || *p == '\0') {
			if (!ndig || part > 3)
				return -1;
			out[12 + part++] = (uint8_t)val;
			val = 0;
			ndig = 0;
			if (!*p)
				break;
		} else {
			return -1;
		}
	}
	return part == 4 ? 0 : -1;
}

static int parse_mac(const char *s, uint8_t out[PISA_VALUE_BYTES])
{
	unsigned part = 0, val = 0, ndig = 0;
	const char *p;

	for (p = s;; p++) {
		int d = digit_val(*p);

		if (*p && d < 16) {
			val = val * 16 + (unsigned)d;
			if (++ndig > 2)
				return -1;
		} else if (*p == ':' || *p == '\0') {
			if (!ndig || part > 5)
				return -1;
			out[10 + part++] = (uint8_t)val;
			val = 0;
			ndig = 0;
			if (!*p)
				break;
		} else {
			return -1;
		}
	}
	return part == 6 ? 0 : -1;
}

int pisa_value_parse(const char *s, unsigned width, uint8_t out[PISA_VALUE_BYTES],
		     const char **why)
{
	int rc;

	memset(out, 0, PISA_VALUE_BYTES);
	if (width == 32 && strchr(s, '.')) {
		*why = "invalid IPv4 address";
		return parse_ipv4(s, out) ? -PISA_E_INVAL : 0;
	}
	if (width == 48 && strchr(s, ':')) {
		*why = "invalid MAC address";
		return parse_mac(s, out) ? -PISA_E_INVAL : 0;
	}
	if (width == 128 && strchr(s, ':')) {
		*why = "invalid IPv6 address";
		return inet_pton(AF_INET6, s, out) == 1 ? 0 : -PISA_E_INVAL;
	}
	rc = parse_int0(s, out, why);
	if (rc)
		return rc;
	if (width > PISA_VALUE_MAX_BITS || !pisa_value_fits(out, width)) {
		*why = "value is too large";
		return -PISA_E_RANGE;
	}
	return 0;
}

void pisa_value_put(uint8_t *buf, size_t bitoff, unsigned width,
		    const uint8_t v[PISA_VALUE_BYTES])
{
	uint64_t hi = 0, lo = 0;
	int i;

	for (i = 0; i < 8; i++) {
		hi = hi << 8 | v[i];
		lo = lo << 8 | v[8 + i];
	}
	if (width <= 64) {
		pisa_bits_set(buf, bitoff, width, lo);
	} else {
		pisa_bits_set(buf, bitoff, width - 64, hi);
		pisa_bits_set(buf, bitoff + width - 64, 64, lo);
	}
}

void pisa_value_get(const uint8_t *buf, size_t bitoff, unsigned width,
		    uint8_t v[PISA_VALUE_BYTES])
{
	uint64_t hi = 0, lo;
	int i;

	if (width <= 64) {
		lo = pisa_bits_get(buf, bitoff, width);
	} else {
		hi = pisa_bits_get(buf, bitoff, width - 64);
		lo = pisa_bits_get(buf, bitoff + width - 64, 64);
	}
	for (i = 7; i >= 0; i--) {
		v[i] = (uint8_t)hi;
		v[8 + i] = (uint8_t)lo;
		hi >>= 8;
		lo >>= 8;
	}
}

void pisa_value_prefix_mask(unsigned width, unsigned n, uint8_t m[PISA_VALUE_BYTES])
{
	unsigned i;

	memset(m, 0, PISA_VALUE_BYTES);
	/* bit j of the value from its MSB is bit (128 - width + j) of m */
	for (i = 0; i < n && i < width; i++) {
		unsigned b = PISA_VALUE_MAX_BITS - width + i;

		m[b / 8] |= (uint8_t)(0x80 >> (b % 8));
	}
}

void pisa_value_fmt_float(double v, char *buf, size_t len)
{
	char tmp[40], digits[24];
	int prec, exp, nd = 0, neg = 0, i;
	char *e;

	if (!isfinite(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
		return;
	}
	if (v == 0) {
		snprintf(buf, len, "%s", signbit(v) ? "-0.0" : "0.0");
		return;
	}
	/* shortest %.*e that reads back as v */
	for (prec = 0; prec < 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	snprintf(tmp, sizeof(tmp), "%.*e", prec, v);
	e = strchr(tmp, 'e');
	exp = atoi(e + 1);
	for (i = 0; tmp + i < e; i++) {
		if (tmp[i] == '-')
			neg = 1;
		else if (tmp[i] >= '0' && tmp[i] <= '9')
			digits[nd++] = tmp[i];
	}
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	/* Python repr: fixed notation for 1e-4 <= |v| < 1e16 */
	if (exp >= -4 && exp < 16) {
		char out[64];
		int o = 0;

		if (neg)
			out[o++] = '-';
		if (exp < 0) {
			out[o++] = '0';
			out[o++] = '.';
			for (i = 0; i < -exp - 1; i++)
				out[o++] = '0';
			for (i = 0; i < nd; i++)
				out[o++] = digits[i];
		} else {
			for (i = 0; i <= exp; i++)
				out[o++] = i < nd ? digits[i] : '0';
			out[o++] = '.';
			if (nd > exp + 1)
				for (i = exp + 1; i < nd; i++)
					out[o++] = digits[i];
			else
				out[o++] = '0';
		}
		out[o] = '\0';
		snprintf(buf, len, "%s", out);
	} else {
		snprintf(buf, len, "%s%c%s%s%se%c%02d", neg ? "-" : "", digits[0],
			 nd > 1 ? "." : "", nd > 1 ? digits + 1 : "", "",
			 exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
	}
}
