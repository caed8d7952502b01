/*
 * The OpenXR entry points the runtime implements, as one X-macro list:
 * rt_entry.c builds xrGetInstanceProcAddr's table from it, and every file
 * gets a prototype for its rt_xr* functions from the loader's PFN types, so
 * a signature can never drift from the header.
 */
#ifndef RT_API_H
#define RT_API_H

#include "rt_internal.h"

/* Which instance extension must be enabled for a function to be returned. */
enum rt_ext {
	RT_EXT_NONE = 0,
	RT_EXT_VULKAN1,
	RT_EXT_VULKAN2,
	RT_EXT_OPENGL,
};

#define RT_FUNCTIONS(_)                                   \
	_(xrGetInstanceProcAddr, RT_EXT_NONE)                 \
	_(xrEnumerateInstanceExtensionProperties, RT_EXT_NONE) \
	_(xrCreateInstance, RT_EXT_NONE)                      \
	_(xrDestroyInstance, RT_EXT_NONE)                     \
	_(xrGetInstanceProperties, RT_EXT_NONE)               \
	_(xrPollEvent, RT_EXT_NONE)                           \
	_(xrResultToString, RT_EXT_NONE)                      \
	_(xrStructureTypeToString, RT_EXT_NONE)               \
	_(xrGetSystem, RT_EXT_NONE)                           \
	_(xrGetSystemProperties, RT_EXT_NONE)                 \
	_(xrEnumerateEnvironmentBlendModes, RT_EXT_NONE)      \
	_(xrEnumerateViewConfigurations, RT_EXT_NONE)         \
	_(xrGetViewConfigurationProperties, RT_EXT_NONE)      \
	_(xrEnumerateViewConfigurationViews, RT_EXT_NONE)     \
	_(xrStringToPath, RT_EXT_NONE)                        \
	_(xrPathToString, RT_EXT_NONE)                        \
	_(xrCreateSession, RT_EXT_NONE)                       \
	_(xrDestroySession, RT_EXT_NONE)                      \
	_(xrBeginSession, RT_EXT_NONE)                        \
	_(xrEndSession, RT_EXT_NONE)                          \
	_(xrRequestExitSession, RT_EXT_NONE)                  \
	_(xrEnumerateReferenceSpaces, RT_EXT_NONE)            \
	_(xrEnumerateSwapchainFormats, RT_EXT_NONE)           \
	_(xrWaitFrame, RT_EXT_NONE)                           \
	_(xrBeginFrame, RT_EXT_NONE)                          \
	_(xrEndFrame, RT_EXT_NONE)                            \
	_(xrLocateViews, RT_EXT_NONE)                         \
	_(xrCreateReferenceSpace, RT_EXT_NONE)                \
	_(xrGetReferenceSpaceBoundsRect, RT_EXT_NONE)         \
	_(xrCreateActionSpace, RT_EXT_NONE)                   \
	_(xrLocateSpace, RT_EXT_NONE)                         \
	_(xrDestroySpace, RT_EXT_NONE)                        \
	_(xrCreateSwapchain, RT_EXT_NONE)                     \
	_(xrDestroySwapchain, RT_EXT_NONE)                    \
	_(xrEnumerateSwapchainImages, RT_EXT_NONE)            \
	_(xrAcquireSwapchainImage, RT_EXT_NONE)               \
	_(xrWaitSwapchainImage, RT_EXT_NONE)                  \
	_(xrReleaseSwapchainImage, RT_EXT_NONE)               \
	_(xrCreateActionSet, RT_EXT_NONE)                     \
	_(xrDestroyActionSet, RT_EXT_NONE)                    \
	_(xrCreateAction, RT_EXT_NONE)                        \
	_(xrDestroyAction, RT_EXT_NONE)                       \
	_(xrSuggestInteractionProfileBindings, RT_EXT_NONE)   \
	_(xrAttachSessionActionSets, RT_EXT_NONE)             \
	_(xrGetCurrentInteractionProfile, RT_EXT_NONE)        \
	_(xrGetActionStateBoolean, RT_EXT_NONE)               \
	_(xrGetActionStateFloat, RT_EXT_NONE)                 \
	_(xrGetActionStateVector2f, RT_EXT_NONE)              \
	_(xrGetActionStatePose, RT_EXT_NONE)                  \
	_(xrSyncActions, RT_EXT_NONE)                         \
	_(xrEnumerateBoundSourcesForAction, RT_EXT_NONE)      \
	_(xrGetInputSourceLocalizedName, RT_EXT_NONE)         \
	_(xrApplyHapticFeedback, RT_EXT_NONE)                 \
	_(xrStopHapticFeedback, RT_EXT_NONE)                  \
	_(xrGetVulkanInstanceExtensionsKHR, RT_EXT_VULKAN1)   \
	_(xrGetVulkanDeviceExtensionsKHR, RT_EXT_VULKAN1)     \
	_(xrGetVulkanGraphicsDeviceKHR, RT_EXT_VULKAN1)       \
	_(xrGetVulkanGraphicsRequirementsKHR, RT_EXT_VULKAN1) \
	_(xrCreateVulkanInstanceKHR, RT_EXT_VULKAN2)          \
	_(xrCreateVulkanDeviceKHR, RT_EXT_VULKAN2)            \
	_(xrGetVulkanGraphicsDevice2KHR, RT_EXT_VULKAN2)      \
	_(xrGetVulkanGraphicsRequirements2KHR, RT_EXT_VULKAN2) \
	_(xrGetOpenGLGraphicsRequirementsKHR, RT_EXT_OPENGL)

/* rt_xrFoo has exactly the type PFN_xrFoo points to. */
#define RT_DECLARE(name, ext) extern __typeof__(*(PFN_##name)0) rt_##name;
RT_FUNCTIONS(RT_DECLARE)
#undef RT_DECLARE

#endif /* RT_API_H */
