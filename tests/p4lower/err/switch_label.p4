#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	action a1() { }
	action a2() { }
	table t {
		key = { sm.ingress_port : exact; }
		actions = { a1; }
	}
	apply {
		switch (t.apply().action_run) {
		a1: { }
		a2: { }
		}
	}
}
