#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	apply {
		const bit<9> P = sm.ingress_port;
		sm.egress_spec = P;
	}
}
