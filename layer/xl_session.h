/*
 * The XrSession hooks: where each side sets up and tears down its GPU
 * timestamps for a session with a Vulkan binding, and (pre side, under
 * XR_KHR_vulkan_enable2) the Vulkan instance and device hooks that make the
 * gated mode possible.
 */
#ifndef XL_SESSION_H
#define XL_SESSION_H

struct xl_instance;

/*
 * The hooks themselves (xrCreateSession, xrDestroySession,
 * xrCreateVulkanInstanceKHR, xrCreateVulkanDeviceKHR) are declared in
 * xl_hooks.h.
 */

/*
 * xrDestroyInstance with a session still alive (the application abandoned
 * it): its GPU state is destroyed as xrDestroySession would, on the
 * application's device, which outlives the session.
 */
void xl_session_destroy_gpu(struct xl_instance *in);

/*
 * The instance ends without xrDestroyInstance (the process exits), or after
 * it: a session's GPU state still here is let go of, its Vulkan objects
 * left to the device (which may be gone).
 */
void xl_session_exit_gpu(struct xl_instance *in);

#endif /* XL_SESSION_H */
