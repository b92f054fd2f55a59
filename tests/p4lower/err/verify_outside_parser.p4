#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	apply {
		verify(sm.ingress_port != 0, error.NoMatch);
	}
}
