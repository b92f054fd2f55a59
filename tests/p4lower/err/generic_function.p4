#include <v1model.p4>
bit<8> twice<T>(in T x) {
	return 2;
}
