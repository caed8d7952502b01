# The runtime's tests (ctest -R runtime). See tests/README.md.

add_library(rt_test_common STATIC tc_common.c)
target_link_libraries(rt_test_common PUBLIC OpenXR::openxr_loader OpenXR::headers)

foreach(t tc_pacing tc_endframe tc_invalid_call)
	add_executable(${t} ${t}.c)
	target_link_libraries(${t} PRIVATE rt_test_common m)
endforeach()
add_executable(tc_handles tc_handles.c)
target_include_directories(tc_handles PRIVATE ${PROJECT_SOURCE_DIR}/layer)
target_link_libraries(tc_handles PRIVATE rt_test_common ${CMAKE_DL_LIBS})

set(RT_ENV XR_RUNTIME_JSON=${XRLM_TEST_RUNTIME_JSON})

# rt_add_test(NAME ENV_LIST COMMAND...)
function(rt_add_test name env)
	add_test(NAME ${name} COMMAND ${ARGN})
	set_tests_properties(${name} PROPERTIES ENVIRONMENT "${RT_ENV};${env}" TIMEOUT 120)
endfunction()

rt_add_test(runtime_pacing_90hz "XRTEST_FRAME_RATE=90"
	tc_pacing --rate 90 --frames 300)
rt_add_test(runtime_pacing_default_is_90hz ""
	tc_pacing --rate 90 --frames 90)
set_tests_properties(runtime_pacing_default_is_90hz PROPERTIES
	ENVIRONMENT_MODIFICATION "XRTEST_FRAME_RATE=unset:")
rt_add_test(runtime_pacing_120hz "XRTEST_FRAME_RATE=120"
	tc_pacing --rate 120 --frames 240)
# Timing tests run alone (PROCESSORS 2 on a 2-core machine): a test that
# keeps the CPUs busy (lavapipe) could make the client miss whole periods.
set_tests_properties(runtime_pacing_90hz runtime_pacing_default_is_90hz runtime_pacing_120hz
	PROPERTIES PROCESSORS 2)
rt_add_test(runtime_pacing_unpaced "XRTEST_FRAME_RATE=0"
	tc_pacing --rate 0 --frames 300)
rt_add_test(runtime_compositor_cpu "XRTEST_FRAME_RATE=0;XRTEST_COMPOSITOR_CPU_US=3000"
	tc_pacing --rate 0 --frames 100 --cpu-us 3000)
rt_add_test(runtime_exit_after_frames "XRTEST_FRAME_RATE=0;XRTEST_EXIT_AFTER_FRAMES=50"
	tc_pacing --rate 0 --frames 50 --expect-exit)
rt_add_test(runtime_endframe_validation "XRTEST_FRAME_RATE=0"
	tc_endframe)
rt_add_test(runtime_bad_handles "XRTEST_FRAME_RATE=0"
	tc_handles $<TARGET_FILE:xrlm_test_runtime>)
rt_add_test(runtime_bad_knobs ""
	${CMAKE_CURRENT_SOURCE_DIR}/knobs.sh $<TARGET_FILE:tc_pacing> ${XRLM_TEST_RUNTIME_JSON})
rt_add_test(runtime_core_validation_catches_invalid_call "XRTEST_FRAME_RATE=0"
	${CMAKE_CURRENT_SOURCE_DIR}/hello_xr.sh --self-test $<TARGET_FILE:tc_invalid_call>
	${XRLM_TEST_RUNTIME_JSON})
# Vulkan2 also runs the compositor's CPU and GPU work, so it is checked
# under core_validation too.
set(RT_HELLO_ENV_Vulkan "")
set(RT_HELLO_ENV_Vulkan2 "XRTEST_COMPOSITOR_CPU_US=500;XRTEST_COMPOSITOR_GPU_US=1000")
foreach(g Vulkan Vulkan2)
	string(TOLOWER ${g} lg)
	rt_add_test(runtime_hello_xr_${lg} "${RT_HELLO_ENV_${g}}"
		${CMAKE_CURRENT_SOURCE_DIR}/hello_xr.sh ${g} ${XRLM_TEST_RUNTIME_JSON} 300)
	# lavapipe renders on every core: keep other tests off the machine meanwhile.
	set_tests_properties(runtime_hello_xr_${lg} PROPERTIES PROCESSORS 2)
endforeach()

# hello_xr -g OpenGL on a private Xvfb (llvmpipe), through the VidMode shim.
rt_add_test(runtime_hello_xr_opengl
	"XRLM_TEST_VIDMODE_SHIM=$<TARGET_FILE:xrlm_test_vidmode_shim>"
	${PROJECT_SOURCE_DIR}/tests/common/with_xvfb.sh
	${CMAKE_CURRENT_SOURCE_DIR}/hello_xr.sh OpenGL ${XRLM_TEST_RUNTIME_JSON} 300)
set_tests_properties(runtime_hello_xr_opengl PROPERTIES PROCESSORS 2)

add_executable(tc_swapchain tc_swapchain.c)
target_link_libraries(tc_swapchain PRIVATE rt_test_common Vulkan::Vulkan)
rt_add_test(runtime_swapchain_vulkan "XRTEST_FRAME_RATE=0;XRTEST_COMPOSITOR_GPU_US=200"
	tc_swapchain)
