#include "TestLedgerLoader.h"

// Runs when the test binary loads, before any test: adding the TestLedger product to a test
// target is all it takes. The registration itself prints nothing and opens no file.
__attribute__((constructor)) static void testledger_load(void) {
    if (testledger_register_observer) {
        testledger_register_observer();
    }
}
