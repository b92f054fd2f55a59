#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	action set(bit<9> p) { sm.egress_spec = p; }
	table t {
		key = { sm.ingress_port : exact; sm.egress_port : ternary; }
		actions = { set; }
		const entries = {
			(1, 2) : set(3);
			(1, 2, 3) : set(4);
		}
	}
	apply { t.apply(); }
}
