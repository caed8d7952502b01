/*
 * LD_PRELOAD shim for hello_xr -g OpenGL under Xvfb (test fixture only).
 *
 * hello_xr's GL window code (OpenXR-SDK gfxwrapper) reads the desktop mode
 * through XF86VidModeGetAllModeLines and dereferences the first mode without
 * checking the call: on a display without XFree86-VidModeExtension, such as
 * Xvfb, it crashes before creating its context. Where the display lacks the
 * extension, this shim answers with one mode of the screen's size at 60 Hz
 * and accepts mode switches to it; where the display has it, every call goes
 * to the real libXxf86vm.
 */
#include <X11/Xlib.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

/* libXxf86vm's XF86VidModeModeInfo (xf86vmode.h, not installed by Debian's -dev set). */
typedef struct {
	unsigned int dotclock;
	unsigned short hdisplay, hsyncstart, hsyncend, htotal, hskew;
	unsigned short vdisplay, vsyncstart, vsyncend, vtotal;
	unsigned int flags;
	int privsize;
	int32_t *private_data;
} XF86VidModeModeInfo;

#define SHIM_REFRESH_HZ 60

static Bool has_vidmode(Display *dpy)
{
	int opcode, event, error;
	return XQueryExtension(dpy, "XFree86-VidModeExtension", &opcode, &event, &error);
}

static void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

__attribute__((visibility("default"))) Bool
XF86VidModeGetAllModeLines(Display *dpy, int screen, int *count, XF86VidModeModeInfo ***modes)
{
	if (has_vidmode(dpy)) {
		Bool (*fn)(Display *, int, int *, XF86VidModeModeInfo ***) =
			real("XF86VidModeGetAllModeLines");
		return fn ? fn(dpy, screen, count, modes) : False;
	}
	/* One block, as libXxf86vm allocates it: the caller XFree()s the array only. */
	struct {
		XF86VidModeModeInfo *list[1];
		XF86VidModeModeInfo mode;
	} *block = calloc(1, sizeof(*block));
	if (!block)
		return False;
	unsigned short w = (unsigned short)DisplayWidth(dpy, screen);
	unsigned short h = (unsigned short)DisplayHeight(dpy, screen);
	block->mode = (XF86VidModeModeInfo){
		.dotclock = (unsigned int)((uint64_t)w * h * SHIM_REFRESH_HZ / 1000), /* kHz */
		.hdisplay = w, .hsyncstart = w, .hsyncend = w, .htotal = w,
		.vdisplay = h, .vsyncstart = h, .vsyncend = h, .vtotal = h,
	};
	block->list[0] = &block->mode;
	*count = 1;
	*modes = block->list;
	return True;
}

__attribute__((visibility("default"))) Bool
XF86VidModeSwitchToMode(Display *dpy, int screen, XF86VidModeModeInfo *mode)
{
	if (has_vidmode(dpy)) {
		Bool (*fn)(Display *, int, XF86VidModeModeInfo *) = real("XF86VidModeSwitchToMode");
		return fn ? fn(dpy, screen, mode) : False;
	}
	return True; /* the one mode there is */
}

__attribute__((visibility("default"))) Bool
XF86VidModeSetViewPort(Display *dpy, int screen, int x, int y)
{
	if (has_vidmode(dpy)) {
		Bool (*fn)(Display *, int, int, int) = real("XF86VidModeSetViewPort");
		return fn ? fn(dpy, screen, x, y) : False;
	}
	return True;
}
