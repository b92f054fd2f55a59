#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	action fwd(bit<9> port) {
		port = 1;
		sm.egress_spec = port;
	}
	apply { fwd(2); }
}
