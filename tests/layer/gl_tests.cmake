# OpenGL sessions (README, GPU cost): hello_xr -g OpenGL on a private Xvfb
# (Mesa's llvmpipe), through the VidMode shim hello_xr needs there.
function(xrlm_layer_gl_test name script)
  add_test(NAME layer_${name}
    COMMAND ${PROJECT_SOURCE_DIR}/tests/common/with_xvfb.sh
      sh ${CMAKE_CURRENT_SOURCE_DIR}/${script} ${ARGN})
  set_tests_properties(layer_${name} PROPERTIES
    ENVIRONMENT "${layer_test_env};XRLM_TEST_WORK=${CMAKE_CURRENT_BINARY_DIR}/work/${name};XRLM_TEST_VIDMODE_SHIM=$<TARGET_FILE:xrlm_test_vidmode_shim>"
    TIMEOUT 180
    # llvmpipe renders on every core.
    PROCESSORS 2)
endfunction()

xrlm_layer_gl_test(hello_xr_OpenGL_api_dump hello_xr.sh OpenGL XR_APILAYER_LUNARG_api_dump)
xrlm_layer_gl_test(hello_xr_OpenGL_test_target hello_xr.sh OpenGL XR_APILAYER_XRLM_test_target
  XRTEST_TARGET_GL_DRAWS=8)
foreach(draws 4 16 40)
  xrlm_layer_gl_test(gl_accuracy_${draws}draws gl.sh accuracy ${draws})
endforeach()
xrlm_layer_gl_test(gl_no_timer_query gl.sh no-timer-query)
# The accuracy runs compare GPU times, and llvmpipe's GPU is the CPU.
set_tests_properties(layer_gl_accuracy_4draws layer_gl_accuracy_16draws
  layer_gl_accuracy_40draws PROPERTIES RUN_SERIAL TRUE)
