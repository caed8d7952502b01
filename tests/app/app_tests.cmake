# ctest cases of the test app. They run through the real loader against the
# headless test runtime, unpaced, with no layers enabled (app_test.sh unsets
# the knobs a caller's environment may carry).

set(APP_TEST_ENV
	XR_RUNTIME_JSON=${CMAKE_BINARY_DIR}/tests/runtime/xrlm_test_runtime.json
	XRTEST_FRAME_RATE=0)
set(APP_TEST ${CMAKE_CURRENT_SOURCE_DIR}/app_test.sh $<TARGET_FILE:xrlm-test-app>)

function(app_test name)
	add_test(NAME ${name} COMMAND ${APP_TEST} ${ARGN})
	set_tests_properties(${name} PROPERTIES ENVIRONMENT "${APP_TEST_ENV}" TIMEOUT 120)
endfunction()

app_test(app_headless run headless 60 0)
app_test(app_vulkan run vulkan 60 5)
app_test(app_vulkan2 run vulkan2 60 5)
app_test(app_egl run egl 60 5)
app_test(app_threads2 run vulkan2 60 5 --threads 2)
app_test(app_threads2_headless run headless 60 0 --threads 2)
app_test(app_threads_new run vulkan2 60 5 --threads new)
app_test(app_threads_new_headless run headless 60 0 --threads new)
app_test(app_runtime_exit runtime-exit)
app_test(app_bad_args bad-args)
app_test(app_frame_log frame-log)
app_test(app_calls_full_headless calls headless full)
app_test(app_calls_full_vulkan2 calls vulkan2 full)
app_test(app_calls_frame_headless calls headless frame)
app_test(app_calls_frame_vulkan2 calls vulkan2 frame)
