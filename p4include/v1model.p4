/* SPDX-License-Identifier: MIT */
/*
 * v1model.p4 for OpenPISA's p4lower: the v1model architecture (BMv2 simple_switch)
 * declarations with their standard names and signatures, so that v1model programs
 * compile unchanged. Written for this project from the architecture's documentation.
 */
#ifndef OPENPISA_V1MODEL_P4
#define OPENPISA_V1MODEL_P4
#define _V1_MODEL_P4_

#include "core.p4"

#ifndef V1MODEL_VERSION
#define V1MODEL_VERSION 20200408
#endif

match_kind {
	range,		/* lo <= key <= hi */
	optional,	/* exact or wildcard */
	selector	/* hashed into an action selector */
}

const bit<32> __v1model_version = V1MODEL_VERSION;

typedef bit<9> PortId_t;

@metadata @name("standard_metadata")
struct standard_metadata_t {
	PortId_t ingress_port;
	PortId_t egress_spec;		/* set by ingress; 511 drops */
	PortId_t egress_port;
	bit<32> instance_type;
	bit<32> packet_length;
	@alias("queueing_metadata.enq_timestamp") bit<32> enq_timestamp;
	@alias("queueing_metadata.enq_qdepth") bit<19> enq_qdepth;
	@alias("queueing_metadata.deq_timedelta") bit<32> deq_timedelta;
	@alias("queueing_metadata.deq_qdepth") bit<19> deq_qdepth;
	@alias("intrinsic_metadata.ingress_global_timestamp") bit<48> ingress_global_timestamp;
	@alias("intrinsic_metadata.egress_global_timestamp") bit<48> egress_global_timestamp;
	@alias("intrinsic_metadata.mcast_grp") bit<16> mcast_grp;
	@alias("intrinsic_metadata.egress_rid") bit<16> egress_rid;
	bit<1> checksum_error;
	error parser_error;
	@alias("intrinsic_metadata.priority") bit<3> priority;
}

enum CounterType {
	packets,
	bytes,
	packets_and_bytes
}

enum MeterType {
	packets,
	bytes
}

/*
 * Indexed externs take the index type I (V1MODEL_VERSION >= 20200408). p4lower
 * also accepts them without it (counter(...), register<bit<32>>(...)), as older
 * programs are written: the index is then not type checked.
 */

/* Indexed counters. */
extern counter<I> {
	counter(bit<32> size, CounterType type);
	void count(in I index);
}

/* A counter per table entry. */
extern direct_counter {
	direct_counter(CounterType type);
	void count();
}

#define V1MODEL_METER_COLOR_GREEN 0
#define V1MODEL_METER_COLOR_YELLOW 1
#define V1MODEL_METER_COLOR_RED 2

/* Indexed two-rate three-color meters. */
extern meter<I> {
	meter(bit<32> size, MeterType type);
	void execute_meter<T>(in I index, out T result);
}

/* A meter per table entry. */
extern direct_meter<T> {
	direct_meter(MeterType type);
	void read(out T result);
}

/* Registers: arrays of T read and written by the data plane. */
extern register<T, I> {
	register(bit<32> size);
	@noSideEffects
	void read(out T result, in I index);
	void write(in I index, in T value);
}

extern action_profile {
	action_profile(bit<32> size);
}

/* A random value in [lo, hi]. */
extern void random<T>(out T result, in T lo, in T hi);

/* Sends data to the control plane. */
extern void digest<T>(in bit<32> receiver, in T data);

enum HashAlgorithm {
	crc32,
	crc32_custom,
	crc16,
	crc16_custom,
	random,
	identity,
	csum16,
	xor16
}

@deprecated("Please use mark_to_drop(standard_metadata) instead.")
extern void mark_to_drop();

/* Drops the packet at the end of ingress or egress. */
@pure
extern void mark_to_drop(inout standard_metadata_t standard_metadata);

/* result = base + (hash(data) % max) */
@pure
extern void hash<O, T, D, M>(out O result, in HashAlgorithm algo, in T base, in D data, in M max);

extern action_selector {
	action_selector(HashAlgorithm algorithm, bit<32> size, bit<32> outputWidth);
}

enum CloneType {
	I2E,
	E2E
}

@deprecated("Please use verify_checksum/update_checksum instead.")
extern Checksum16 {
	Checksum16();
	bit<16> get<D>(in D data);
}

extern void verify_checksum<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);
@pure
extern void update_checksum<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);
extern void verify_checksum_with_payload<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);
@noSideEffects
extern void update_checksum_with_payload<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

extern void clone(in CloneType type, in bit<32> session);

@deprecated("Please use 'resubmit_preserving_field_list' instead")
extern void resubmit<T>(in T data);
extern void resubmit_preserving_field_list(bit<8> index);

@deprecated("Please use 'recirculate_preserving_field_list' instead")
extern void recirculate<T>(in T data);
extern void recirculate_preserving_field_list(bit<8> index);

@deprecated("Please use 'clone_preserving_field_list' instead")
extern void clone3<T>(in CloneType type, in bit<32> session, in T data);
extern void clone_preserving_field_list(in CloneType type, in bit<32> session, bit<8> index);

extern void truncate(in bit<32> length);

extern void assert(in bool check);
extern void assume(in bool check);

extern void log_msg(string msg);
extern void log_msg<T>(string msg, in T data);

/* The v1model pipeline: parser, checksum verification, ingress, egress, checksum update, deparser. */
parser Parser<H, M>(packet_in b, out H parsedHdr, inout M meta, inout standard_metadata_t standard_metadata);
control VerifyChecksum<H, M>(inout H hdr, inout M meta);
@pipeline
control Ingress<H, M>(inout H hdr, inout M meta, inout standard_metadata_t standard_metadata);
@pipeline
control Egress<H, M>(inout H hdr, inout M meta, inout standard_metadata_t standard_metadata);
control ComputeChecksum<H, M>(inout H hdr, inout M meta);
@deparser
control Deparser<H>(packet_out b, in H hdr);

package V1Switch<H, M>(Parser<H, M> p, VerifyChecksum<H, M> vr, Ingress<H, M> ig, Egress<H, M> eg, ComputeChecksum<H, M> ck, Deparser<H> dep);

#endif
