#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	apply {
		sm.egress_spec = x1;
		sm.egress_spec = x2;
		sm.egress_spec = x3;
		sm.egress_spec = x4;
		sm.egress_spec = x5;
		sm.egress_spec = x6;
		sm.egress_spec = x7;
		sm.egress_spec = x8;
		sm.egress_spec = x9;
		sm.egress_spec = x10;
		sm.egress_spec = x11;
		sm.egress_spec = x12;
		sm.egress_spec = x13;
		sm.egress_spec = x14;
		sm.egress_spec = x15;
		sm.egress_spec = x16;
		sm.egress_spec = x17;
		sm.egress_spec = x18;
		sm.egress_spec = x19;
		sm.egress_spec = x20;
		sm.egress_spec = x21;
		sm.egress_spec = x22;
	}
}
