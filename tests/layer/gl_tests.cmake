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
