/*
 * The one place the layer includes OpenXR: the core and platform headers
 * with the platform parts the layer is built for (XR_USE_GRAPHICS_API_VULKAN
 * and XR_USE_TIMESPEC, compile definitions of the layer targets in
 * layer/CMakeLists.txt), and the loader negotiation ABI. Everything the
 * platform header's enabled parts need is included first.
 */
#ifndef XL_OPENXR_H
#define XL_OPENXR_H

#include <time.h> /* struct timespec: XR_USE_TIMESPEC */
#include <vulkan/vulkan.h>

#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>

#include "loader_abi.h"

#endif /* XL_OPENXR_H */
