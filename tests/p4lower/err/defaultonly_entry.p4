#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	action fwd(bit<9> p) { sm.egress_spec = p; }
	action drop() { mark_to_drop(sm); }
	table t {
		key = { sm.ingress_port : exact; }
		actions = { fwd; @defaultonly drop; }
		default_action = drop();
		const entries = {
			1 : fwd(2);
			2 : drop();
		}
	}
	apply { t.apply(); }
}
