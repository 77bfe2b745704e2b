#ifndef TESTLEDGER_ARGUMENTS_H
#define TESTLEDGER_ARGUMENTS_H

/// How many arguments the process was started with, as the C library handed them to the
/// program's constructors before `main`; -1 where it hands none.
int testledger_arguments_seen(void);

#endif
