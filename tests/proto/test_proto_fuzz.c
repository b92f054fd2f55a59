/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_proto_fuzz.c: replays tests/proto/corpus/ through
 * pisa_proto_fuzz_one(), then a few thousand deterministic mutations of
 * each file. `test_proto_fuzz --write-corpus DIR` regenerates the seed
 * files (valid frames of every type, as the fuzz modes expect).
 *
 * With clang, the same entry runs under libFuzzer:
 *   int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
 *   { if (pisa_proto_fuzz_one(d, n)) abort(); return 0; }
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pisa_proto.h"

#define CORPUS "tests/proto/corpus"
#define MAXF 65536

static int failed;

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static size_t rd(const char *path, uint8_t *buf)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, MAXF, f);
	fclose(f);
	return n;
}

static void wr(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(2);
	}
	fwrite(p, 1, n, f);
	fclose(f);
}

/* A structured record for the odd mode: type, seq delta, len, payload, corrupt. */
static size_t rec(uint8_t *out, uint8_t type, uint8_t delta, const uint8_t *p, size_t n,
		  uint8_t corrupt)
{
	out[0] = type;
	out[1] = delta;
	out[2] = (uint8_t)n;
	memcpy(out + 3, p, n);
	out[3 + n] = corrupt;
	return 4 + n;
}

static void write_corpus(const char *dir)
{
	static uint8_t buf[MAXF];
	uint8_t p[256], row[12] = { 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 5 }, mc[8] = { 1, 0, 2, 0 };
	struct pisa_proto_op ops[4] = {
		{ .op = PISA_OP_ROW, .id = 1, .index = 3, .data = row, .len = sizeof(row) },
		{ .op = PISA_OP_REGISTER, .id = 2, .index = 4, .a = 77 },
		{ .op = PISA_OP_MCAST, .id = 5, .n = 2, .data = mc },
		{ .op = PISA_OP_CLONE, .id = 9, .clone = { 1, 3, 0, 64 } },
	};
	struct pisa_proto_read rdm = { PISA_OP_COUNTER, 1, 2 };
	struct pisa_proto_blob b = { 1, (const uint8_t *)"\x02\x00\x00\x00\x00\x01packet", 12 };
	struct pisa_proto_commit c = { 10, 0 };
	size_t len, n, i;
	long m;

	/* odd mode: a write batch, a read, a packet-out, a duplicate, a gap, a reset */
	len = 0;
	buf[len++] = 1;
	n = pisa_proto_batch_init(p, sizeof(p));
	for (i = 0; i < 4; i++)
		pisa_proto_batch_add(p, sizeof(p), &n, &ops[i]);
	len += rec(buf + len, PISA_MSG_WRITE, 1, p, n, 0);
	len += rec(buf + len, PISA_MSG_WRITE, 0, p, n, 0);
	m = pisa_proto_read_encode(p, sizeof(p), &rdm);
	len += rec(buf + len, PISA_MSG_READ, 1, p, (size_t)m, 0);
	m = pisa_proto_blob_encode(p, sizeof(p), 16, &b);
	len += rec(buf + len, PISA_MSG_PACKET_OUT, 2, p, (size_t)m, 0);
	len += rec(buf + len, PISA_MSG_PACKET_OUT, 3, p, (size_t)m, 0x85);
	len += rec(buf + len, PISA_MSG_RESET, 1, p, 0, 0);
	wr(dir, "structured-requests", buf, len);

	/* odd mode: image chunk (junk) + commit + hello in the middle */
	len = 0;
	buf[len++] = 3;
	b.num = 0;
	b.data = (const uint8_t *)"PISA\x01\x00\x00\x00junk";
	b.len = 12;
	m = pisa_proto_blob_encode(p, sizeof(p), 32, &b);
	len += rec(buf + len, PISA_MSG_IMAGE_CHUNK, 1, p, (size_t)m, 0);
	c.len = 12;
	c.crc = pisa_crc32(0, b.data, 12);
	m = pisa_proto_commit_encode(p, sizeof(p), &c);
	len += rec(buf + len, PISA_MSG_IMAGE_COMMIT, 1, p, (size_t)m, 0);
	{
		struct pisa_proto_hello h = { 1, 0, 512 };

		m = pisa_proto_hello_encode(p, sizeof(p), &h);
		len += rec(buf + len, PISA_MSG_HELLO, 0x90, p, (size_t)m, 0);
	}
	len += rec(buf + len, PISA_MSG_WRITE, 1, p, 2, 0);
	wr(dir, "structured-image", buf, len);

	/* even mode: raw frames as a host sends them, with garbage between */
	len = 0;
	buf[len++] = 0;
	n = pisa_proto_batch_init(p, sizeof(p));
	for (i = 0; i < 4; i++)
		pisa_proto_batch_add(p, sizeof(p), &n, &ops[i]);
	len += pisa_proto_frame_encode(buf + len, MAXF - len, 0x1235, PISA_MSG_WRITE, p, n);
	buf[len++] = PISA_PROTO_SYNC0;
	buf[len++] = PISA_PROTO_SYNC1;
	len += pisa_proto_frame_encode(buf + len, MAXF - len, 0x1235, PISA_MSG_WRITE, p, n);
	len += pisa_proto_frame_encode(buf + len, MAXF - len, 0x1236, PISA_MSG_WRITE, p, n);
	m = pisa_proto_read_encode(p, sizeof(p), &rdm);
	len += pisa_proto_frame_encode(buf + len, MAXF - len, 0x1237, PISA_MSG_READ, p, (size_t)m);
	wr(dir, "raw-frames", buf, len);

	/* every reply payload as a decoder input */
	{
		struct pisa_proto_hello_reply hr = { .version = 1, .window = 4, .max_payload = 256 };
		struct pisa_proto_ack a = { .status = 1, .err = 6, .failed = 2, .expect = 9 };

		strcpy(hr.board, "sim");
		strcpy(a.detail, "op 2: value out of range");
		buf[0] = 0;
		m = pisa_proto_hello_reply_encode(buf + 1, MAXF - 1, &hr);
		wr(dir, "hello-reply", buf, 1 + (size_t)m);
		m = pisa_proto_ack_encode(buf + 1, MAXF - 1, &a);
		wr(dir, "ack", buf, 1 + (size_t)m);
	}
	/* inputs that once broke something go here too, named for the bug */
}

/* Mutations: flip, set, insert, delete, splice a sync. */
static size_t mutate(uint8_t *d, size_t n, size_t cap)
{
	unsigned k, steps = 1 + rnd() % 4;

	for (k = 0; k < steps; k++) {
		size_t at = n ? rnd() % n : 0;

		switch (rnd() % 5) {
		case 0:
			if (n)
				d[at] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 1:
			if (n)
				d[at] = (uint8_t)rnd();
			break;
		case 2:
			if (n < cap) {
				memmove(d + at + 1, d + at, n - at);
				d[at] = (uint8_t)rnd();
				n++;
			}
			break;
		case 3:
			if (n > 1) {
				memmove(d + at, d + at + 1, n - at - 1);
				n--;
			}
			break;
		case 4:
			if (n + 1 < cap) {
				memmove(d + at + 2, d + at, n - at);
				d[at] = PISA_PROTO_SYNC0;
				d[at + 1] = PISA_PROTO_SYNC1;
				n += 2;
			}
			break;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	static uint8_t buf[MAXF], mut[MAXF + 64];
	unsigned files = 0, bad = 0, runs = 0, i;
	struct dirent *de;
	DIR *dir;

	if (argc == 3 && !strcmp(argv[1], "--write-corpus")) {
		write_corpus(argv[2]);
		return 0;
	}
	dir = opendir(CORPUS);
	if (!dir) {
		printf("FAIL proto_fuzz_corpus: cannot open %s (run from the repo root)\n", CORPUS);
		return 1;
	}
	while ((de = readdir(dir))) {
		char path[512];
		size_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", CORPUS, de->d_name);
		n = rd(path, buf);
		files++;
		if (pisa_proto_fuzz_one(buf, n)) {
			printf("FAIL proto_fuzz_replay: %s breaks an invariant\n", de->d_name);
			failed = bad = 1;
		}
		for (i = 0; i < 2000; i++) {
			size_t m;

			memcpy(mut, buf, n);
			m = mutate(mut, n, sizeof(mut));
			runs++;
			if (pisa_proto_fuzz_one(mut, m)) {
				printf("FAIL proto_fuzz_mutation: %s mutation %u breaks an invariant\n",
				       de->d_name, i);
				failed = 1;
				break;
			}
		}
	}
	closedir(dir);
	if (files < 5) {
		printf("FAIL proto_fuzz_corpus: only %u files in %s\n", files, CORPUS);
		return 1;
	}
	if (!bad)
		printf("PASS proto_fuzz_replay (%u files)\n", files);
	if (!failed)
		printf("PASS proto_fuzz_mutations (%u runs)\n", runs);
	return failed;
}
