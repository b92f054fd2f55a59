# 0 "ok/precedence.p4"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "ok/precedence.p4"

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
# 3 "ok/precedence.p4" 2
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
# 4 "ok/precedence.p4" 2

const bit<8> MUL_OVER_ADD = 1 + 2 * 3;
const bit<8> ADD_OVER_SHIFT = 1 << 2 + 1;
const bool REL_OVER_EQ = 1 < 2 == 3 < 4;
const bit<8> AND_OVER_OR = 0xF0 | 0x0F & 0x3C;
const bit<8> AND_OVER_XOR = 8w1 ^ 8w3 & 8w2;
const bit<8> XOR_OVER_OR = 8w1 | 8w3 ^ 8w2;
const bool LAND_OVER_LOR = true || false && false;
const bit<8> TERNARY_LOWEST = true ? 1 : 0 + 5;
const bit<8> TERNARY_RIGHT = false ? 1 : true ? 2 : 3;
const int UNARY_MINUS = -2 * 3;
const bit<8> NOT_THEN_SHIFT = ~8w0 >> 4;
const bit<8> SAT_ADD = 8w200 |+| 8w100;
const bit<8> SAT_SUB = 8w5 |-| 8w10;
const int<8> SAT_ADD_SIGNED = 8s100 |+| 8s100;
const bit<16> CONCAT_LEFT = 8w1 ++ 8w2 + 16w0x100;
const bit<16> CONCAT_PAREN = 8w1 ++ (8w2 + 8w3);
const bit<4> CAST_TRUNC = (bit<4>)8w0xAB;
const bit<8> SLICE = 16w0xABCD[11:4];
const int<8> CAST_SIGNED = (int<8>)8w200;
const int<8> WRAP = 8s127 + 8s1;
const int DIV = 10 / 3;
const int MOD = 10 % 3;
const bit<8> SUB_WRAP = 8w0 - 1;
const bit<32> SHIFT_OUT = 32w1 << 35;
const bit<128> WIDE = 128w1 << 127;
const bit<8> CAST_BOOL = (bit<8>)(bit<1>)true;
const bool CMP_UNSIGNED = 8w255 > 8w1;
const bool CMP_SIGNED = -8s1 < 8s1;
const bit<8> HEX_UNDERSCORE = 0b1010_1010;
const int BIG_INT = 0xffff_ffff_ffff_ffff * 16;
const bit<8> FROM_CONST = MUL_OVER_ADD * 2;

struct h_t { }
struct m_t { }

parser P(packet_in pkt, out h_t h, inout m_t m, inout standard_metadata_t sm) {
 state start {
  transition accept;
 }
}

control Nop(inout h_t h, inout m_t m) {
 apply { }
}

control Pipe(inout h_t h, inout m_t m, inout standard_metadata_t sm) {
 apply {
  sm.egress_spec = (bit<9>)(MUL_OVER_ADD + FROM_CONST);
 }
}

control D(packet_out pkt, in h_t h) {
 apply { }
}

V1Switch(P(), Nop(), Pipe(), Pipe(), Nop(), D()) main;
