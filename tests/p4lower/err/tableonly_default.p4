#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	action fwd(bit<9> p) { sm.egress_spec = p; }
	table t {
		key = { sm.ingress_port : exact; }
		actions = { @tableonly fwd; NoAction; }
		default_action = fwd(1);
	}
	apply { t.apply(); }
}
