/* SPDX-License-Identifier: MIT */
/*
 * core.p4 for OpenPISA's p4lower: the declarations every P4-16 (spec 1.2.x) program
 * sees, written from the language specification (section "P4 core library").
 */
#ifndef OPENPISA_CORE_P4
#define OPENPISA_CORE_P4
#define _CORE_P4_

/* Standard errors, raised by the parser. */
error {
	NoError,		/* no error */
	PacketTooShort,		/* not enough bits in the packet for extract */
	NoMatch,		/* a select expression had no match */
	StackOutOfBounds,	/* reference to an invalid element of a header stack */
	HeaderTooShort,		/* extracting too many bits into a varbit field */
	ParserTimeout,		/* the parser ran too long */
	ParserInvalidArgument	/* an invalid argument to a parser operation */
}

/* The packet as the parser sees it. */
extern packet_in {
	/* Read a fixed-size header from the packet and make it valid. */
	void extract<T>(out T hdr);
	/* Read a header with a varbit field of the given size. */
	void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);
	/* Read bits without consuming them. */
	T lookahead<T>();
	/* Skip bits. */
	void advance(in bit<32> sizeInBits);
	/* Packet length in bytes (not supported by every target). */
	bit<32> length();
}

/* The packet as the deparser builds it. */
extern packet_out {
	/* Append a header (if valid) or every valid header of a struct/stack. */
	void emit<T>(in T hdr);
}

/* Parser error check: when check is false, the parser stops with toSignal. */
extern void verify(in bool check, in error toSignal);

/* Compile-time assertions. */
extern bool static_assert(bool check, string message);
extern bool static_assert(bool check);

/* The action that does nothing, used as a default. */
@noWarn("unused")
action NoAction() {}

/* Standard match kinds. */
match_kind {
	exact,
	ternary,
	lpm
}

#endif
