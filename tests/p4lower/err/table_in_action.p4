#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	table t {
		key = { sm.ingress_port : exact; }
		actions = { NoAction; }
	}
	action a() {
		t.apply();
	}
	apply { a(); }
}
