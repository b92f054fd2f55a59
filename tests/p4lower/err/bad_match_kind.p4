#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	table t {
		key = { sm.ingress_port : exacto; }
		actions = { NoAction; }
	}
	apply { t.apply(); }
}
