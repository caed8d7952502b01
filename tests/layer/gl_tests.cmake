# OpenGL sessions (README, GPU cost): hello_xr -g OpenGL on a private Xvfb
# (Mesa's llvmpipe), through the VidMode shim hello_xr needs there.

# hello_xr is not instrumented: an ASan build's layers need libasan first in
# the process, so it is preloaded into hello_xr (and only there).
set(gl_hello_preload "")
if(XRLM_SANITIZE STREQUAL "address")
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
    OUTPUT_VARIABLE gl_hello_preload OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()

# Some apps leave the GLX binding's visualid and glxFBConfig unset: this
# shim (tl_glx_unset_shim.c) clears them in hello_xr's xrCreateSession.
add_library(xrlm_test_glx_unset_shim MODULE tl_glx_unset_shim.c)
set_target_properties(xrlm_test_glx_unset_shim PROPERTIES C_VISIBILITY_PRESET hidden)
target_link_libraries(xrlm_test_glx_unset_shim PRIVATE OpenXR::headers ${CMAKE_DL_LIBS})

function(xrlm_layer_gl_test name script)
  add_test(NAME layer_${name}
    COMMAND ${PROJECT_SOURCE_DIR}/tests/common/with_xvfb.sh
      sh ${CMAKE_CURRENT_SOURCE_DIR}/${script} ${ARGN})
  set_tests_properties(layer_${name} PROPERTIES
    ENVIRONMENT "${layer_test_env};XRLM_TEST_WORK=${CMAKE_CURRENT_BINARY_DIR}/work/${name};XRLM_TEST_VIDMODE_SHIM=$<TARGET_FILE:xrlm_test_vidmode_shim>;XRLM_TEST_HELLO_PRELOAD=${gl_hello_preload};XRLM_TEST_GLX_UNSET_SHIM=$<TARGET_FILE:xrlm_test_glx_unset_shim>;XRLM_TEST_LAYER_LIBS=$<TARGET_FILE:XrApiLayer_xrlm_monitor_pre> $<TARGET_FILE:XrApiLayer_xrlm_monitor_post>"
    TIMEOUT 180
    # llvmpipe renders on every core.
    PROCESSORS 2)
endfunction()

# Named layer_gl_*, not layer_hello_xr_*: they also run in the ASan build.
if(NOT XRLM_SANITIZE STREQUAL "thread") # a TSan layer cannot load into hello_xr
xrlm_layer_gl_test(gl_hello_xr_api_dump hello_xr.sh OpenGL XR_APILAYER_LUNARG_api_dump)
xrlm_layer_gl_test(gl_hello_xr_test_target hello_xr.sh OpenGL XR_APILAYER_XRLM_test_target
  XRTEST_TARGET_GL_DRAWS=8)
foreach(draws 4 16 40)
  xrlm_layer_gl_test(gl_accuracy_${draws}draws gl.sh accuracy ${draws})
endforeach()
xrlm_layer_gl_test(gl_no_timer_query gl.sh no-timer-query)
xrlm_layer_gl_test(gl_glx_unset gl.sh glx-unset)
xrlm_layer_gl_test(gl_none_elsewhere gl.sh no-gl-elsewhere)
# hello_xr (GLX) under Mesa's glthread, the target queueing 40 draws: the
# glGetQueryObject readback cost post 465-730 us a frame here, the mapped
# buffer 2-23 us (see gl_glthread below).
xrlm_layer_gl_test(gl_glthread_glx gl.sh glthread 40 hello_xr)
# XR_MNDX_egl_enable: the test app on Mesa's surfaceless EGL, with no X
# display at all (DISPLAY removed, no Xvfb).
function(xrlm_layer_egl_test name)
  add_test(NAME layer_${name}
    COMMAND env -u DISPLAY sh ${CMAKE_CURRENT_SOURCE_DIR}/gl.sh ${ARGN})
  set_tests_properties(layer_${name} PROPERTIES
    ENVIRONMENT "${layer_test_env};XRLM_TEST_WORK=${CMAKE_CURRENT_BINARY_DIR}/work/${name}"
    TIMEOUT 180 PROCESSORS 2)
endfunction()
# The same accuracy check as GLX's.
xrlm_layer_egl_test(gl_accuracy_egl_16draws accuracy 16 egl)
# Mesa's glthread on, the target queueing 100 draws a frame: no GL call of
# the layers' waits for the GL thread (the old glGetQueryObject readback
# cost post 280-380 us a frame here, the mapped buffer 3-7 us).
xrlm_layer_egl_test(gl_glthread glthread 100)
# A context without the mapped buffer's needs: the glGetQueryObject readback.
xrlm_layer_egl_test(gl_old_readback old-readback)
# Recordings stopped while the app runs on: the last frames' GPU values too.
xrlm_layer_egl_test(gl_stops stops)
# Recordings of one frame: their GPU values come too late, and are said lost.
xrlm_layer_egl_test(gl_stops_every_frame stops-every-frame)
# xrEndFrame without the context current (the app's bug).
xrlm_layer_egl_test(gl_not_current not-current)
# XRLM_GPU_MODE=gated (no such mode for GL: the sandwich) and off.
xrlm_layer_egl_test(gl_modes modes)
# The accuracy runs compare GPU times, and llvmpipe's GPU is the CPU.
# The glthread run bounds a cost on the frame thread.
set_tests_properties(layer_gl_accuracy_4draws layer_gl_accuracy_16draws
  layer_gl_accuracy_40draws layer_gl_accuracy_egl_16draws layer_gl_glthread
  layer_gl_glthread_glx layer_gl_old_readback PROPERTIES RUN_SERIAL TRUE)
endif()
