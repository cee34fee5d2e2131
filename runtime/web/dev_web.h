/*
 * dev_web.h — the web device (dev_web.c): a rank's device in the WebAssembly module.
 */
#ifndef RT_WEB_DEV_WEB_H
#define RT_WEB_DEV_WEB_H

#include "dev.h"

struct dev *dev_web_new(int rank);

#endif
