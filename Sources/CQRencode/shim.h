#ifndef SESAME_CQRENCODE_SHIM_H
#define SESAME_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
