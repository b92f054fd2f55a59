/* SPDX-License-Identifier: Apache-2.0 */
/* rnd.h: the stage generators' random numbers, xorshift64*: the same vectors on every run. */
#ifndef STAGE_RND_H
#define STAGE_RND_H

#include <stdint.h>

static uint64_t rnd_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545F4914F6CDD1Dull;
}

#endif
