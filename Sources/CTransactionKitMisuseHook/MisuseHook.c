// The hook is a header-only inline function; this file gives the target a
// translation unit.
#include "CTransactionKitMisuseHook.h"
