// SPDX-License-Identifier: Apache-2.0
//
// int_telemetry: in-band network telemetry. A packet that carries an INT
// shim collects one record per switch on its way: egress pushes (switch id,
// queue depth) on top of the record stack, until the sender's max_count or
// the stack's size is reached; after that the switch only sets the shim's
// exceeded flag.
//
//   shim:   | count 8 | max_count 8 | exceeded 1 | reserved 7 | next_type 16 |
//   record: | switch_id 8 | bos 1 | reserved 3 | qdepth 20 |   x count
//
// EtherType 0x88B5 (IEEE 802 local experimental); next_type is the EtherType
// of what follows the records. The first record pushed (the one nearest
// the payload) has bos = 1. The sending and receiving hosts add and
// remove the shim; switches only forward (l2_fwd, exact on the MAC) and
// record.

#include <core.p4>
#include <v1model.p4>

// Table sizes are divided by TABLE_SIZE_DIVISOR: p4lower -DTABLE_SIZE_DIVISOR=64 makes the
// program small enough for the iCE40 boards (examples/README.md, "Boards").
#ifndef TABLE_SIZE_DIVISOR
#define TABLE_SIZE_DIVISOR 1
#endif

typedef bit<48> mac_addr_t;
typedef bit<9> port_t;

#define MAX_RECORDS 4

const bit<16> TYPE_INT = 0x88B5;

header ethernet_t {
	mac_addr_t dstAddr;
	mac_addr_t srcAddr;
	bit<16> etherType;
}

header int_shim_t {
	bit<8> count;
	bit<8> max_count;
	bit<1> exceeded;
	bit<7> reserved;
	bit<16> next_type;
}

header int_record_t {
	bit<8> switch_id;
	bit<1> bos;
	bit<3> reserved;
	bit<20> qdepth;
}

struct headers {
	ethernet_t ethernet;
	int_shim_t int_shim;
	int_record_t[MAX_RECORDS] int_records;
}

struct metadata {
	bit<8> switch_id;
}

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
		inout standard_metadata_t standard_metadata)
{
	state start {
		packet.extract(hdr.ethernet);
		transition select(hdr.ethernet.etherType) {
			TYPE_INT: parse_shim;
			default: accept;
		}
	}

	state parse_shim {
		packet.extract(hdr.int_shim);
		transition select(hdr.int_shim.count) {
			0: accept;
			default: parse_record;
		}
	}

	state parse_record {
		packet.extract(hdr.int_records.next);
		transition select(hdr.int_records.last.bos) {
			1: accept;
			default: parse_record;
		}
	}
}

control MyVerifyChecksum(inout headers hdr, inout metadata meta)
{
	apply { }
}

control MyIngress(inout headers hdr, inout metadata meta,
		  inout standard_metadata_t standard_metadata)
{
	action drop() {
		mark_to_drop(standard_metadata);
	}

	action forward(port_t port) {
		standard_metadata.egress_spec = port;
	}

	table l2_fwd {
		key = {
			hdr.ethernet.dstAddr: exact;
		}
		actions = {
			forward;
			drop;
		}
		size = 256 / TABLE_SIZE_DIVISOR;
		default_action = drop();
	}

	apply {
		if (standard_metadata.parser_error != error.NoError)
			drop();
		else
			l2_fwd.apply();
	}
}

control MyEgress(inout headers hdr, inout metadata meta,
		 inout standard_metadata_t standard_metadata)
{
	action set_switch_id(bit<8> switch_id) {
		meta.switch_id = switch_id;
	}

	// Keyless: the control plane sets the default action once per switch.
	table int_config {
		actions = {
			set_switch_id;
		}
		default_action = set_switch_id(0);
	}

	action add_record() {
		hdr.int_records.push_front(1);
		hdr.int_records[0].setValid();
		hdr.int_records[0].switch_id = meta.switch_id;
		hdr.int_records[0].bos = 0;
		hdr.int_records[0].reserved = 0;
		hdr.int_records[0].qdepth = (bit<20>)standard_metadata.enq_qdepth;
		hdr.int_shim.count = hdr.int_shim.count + 1;
	}

	apply {
		if (hdr.int_shim.isValid()) {
			int_config.apply();
			if (hdr.int_shim.count < hdr.int_shim.max_count &&
			    hdr.int_shim.count < MAX_RECORDS) {
				add_record();
				if (hdr.int_shim.count == 1)
					hdr.int_records[0].bos = 1;
			} else {
				hdr.int_shim.exceeded = 1;
			}
		}
	}
}

control MyComputeChecksum(inout headers hdr, inout metadata meta)
{
	apply { }
}

control MyDeparser(packet_out packet, in headers hdr)
{
	apply {
		packet.emit(hdr.ethernet);
		packet.emit(hdr.int_shim);
		packet.emit(hdr.int_records);
	}
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
	 MyComputeChecksum(), MyDeparser()) main;
