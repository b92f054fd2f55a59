# 0 "ok/action_profiles.p4"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "ok/action_profiles.p4"


# 1 "../../p4include/core.p4" 1
# 11 "../../p4include/core.p4"
error {
 NoError,
 PacketTooShort,
 NoMatch,
 StackOutOfBounds,
 HeaderTooShort,
 ParserTimeout,
 ParserInvalidArgument
}


extern packet_in {

 void extract<T>(out T hdr);

 void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);

 T lookahead<T>();

 void advance(in bit<32> sizeInBits);

 bit<32> length();
}


extern packet_out {

 void emit<T>(in T hdr);
}


extern void verify(in bool check, in error toSignal);


extern bool static_assert(bool check, string message);
extern bool static_assert(bool check);


@noWarn("unused")
action NoAction() {}


match_kind {
 exact,
 ternary,
 lpm
}
# 4 "ok/action_profiles.p4" 2
# 1 "../../p4include/v1model.p4" 1
# 11 "../../p4include/v1model.p4"
# 1 "../../p4include/core.p4" 1
# 12 "../../p4include/v1model.p4" 2





match_kind {
 range,
 optional,
 selector
}

const bit<32> __v1model_version = 20200408;

typedef bit<9> PortId_t;

@metadata @name("standard_metadata")
struct standard_metadata_t {
 PortId_t ingress_port;
 PortId_t egress_spec;
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
# 65 "../../p4include/v1model.p4"
extern counter<I> {
 counter(bit<32> size, CounterType type);
 void count(in I index);
}


extern direct_counter {
 direct_counter(CounterType type);
 void count();
}






extern meter<I> {
 meter(bit<32> size, MeterType type);
 void execute_meter<T>(in I index, out T result);
}


extern direct_meter<T> {
 direct_meter(MeterType type);
 void read(out T result);
}


extern register<T, I> {
 register(bit<32> size);
 @noSideEffects
 void read(out T result, in I index);
 void write(in I index, in T value);
}

extern action_profile {
 action_profile(bit<32> size);
}


extern void random<T>(out T result, in T lo, in T hi);


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


@pure
extern void mark_to_drop(inout standard_metadata_t standard_metadata);


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
# 5 "ok/action_profiles.p4" 2

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header ipv4_t {
 bit<8> vihl; bit<8> tos; bit<16> len; bit<16> id; bit<16> frag;
 bit<8> ttl; bit<8> proto; bit<16> csum; bit<32> src; bit<32> dst;
}
struct headers { ethernet_t eth; ipv4_t ipv4; }
struct metadata { bit<16> sport; bit<16> dport; }

parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
 state start {
  pkt.extract(h.eth);
  transition select(h.eth.type) { 0x0800: ip; default: accept; }
 }
 state ip { pkt.extract(h.ipv4); transition accept; }
}
control VC(inout headers h, inout metadata m) { apply { } }

control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
 @name(".port_profile") action_profile(32) ports;
 direct_counter(CounterType.packets) hits;
 counter(1, CounterType.packets) misses;

 action set_port(bit<9> port) { sm.egress_spec = port; }
 action set_nhop(bit<48> dmac, bit<9> port) { h.eth.dst = dmac; sm.egress_spec = port; }
 action drop() { mark_to_drop(sm); }

 table by_port {
  key = { sm.ingress_port: exact; }
  actions = { set_port; drop; }
  implementation = ports;
  counters = hits;
  size = 64;
 }
 @max_group_size(8)
 table route {
  key = {
   h.ipv4.dst: lpm;
   h.ipv4.src: selector;
   h.ipv4.dst: selector;
   h.ipv4.proto: selector;
  }
  actions = { set_nhop; drop; }
  implementation = action_selector(HashAlgorithm.crc32, 32w64, 32w16);
  const default_action = drop();
  size = 256;
 }
 apply {
  if (h.ipv4.isValid()) {
   if (route.apply().miss)
    misses.count(0);
  } else {
   switch (by_port.apply().action_run) {
    drop: { exit; }
   }
  }
 }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.ipv4); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
