#include <v1model.p4>
control C() {
	countr(1) c;
	apply { }
}
