#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	action drop() { mark_to_drop(sm); }
	table t {
		key = { sm.ingress_port : exact; }
		actions = { NoAction; }
		default_action = drop();
	}
	apply { t.apply(); }
}
