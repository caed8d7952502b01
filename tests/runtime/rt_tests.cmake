# The runtime's tests (ctest -R runtime). See tests/README.md.

add_library(rtt_common STATIC rtt_common.c)
target_link_libraries(rtt_common PUBLIC OpenXR::openxr_loader OpenXR::headers PRIVATE xrlm_test_xr)

foreach(t rtt_pacing rtt_endframe rtt_invalid_call)
	add_executable(${t} ${t}.c)
	target_link_libraries(${t} PRIVATE rtt_common m)
endforeach()
add_executable(rtt_handles rtt_handles.c)
target_include_directories(rtt_handles PRIVATE ${PROJECT_SOURCE_DIR}/layer)
target_link_libraries(rtt_handles PRIVATE rtt_common ${CMAKE_DL_LIBS})

set(RT_ENV XR_RUNTIME_JSON=${XRLM_TEST_RUNTIME_JSON})

# rt_add_test(NAME ENV_LIST COMMAND...)
function(rt_add_test name env)
	add_test(NAME ${name} COMMAND ${ARGN})
	set_tests_properties(${name} PROPERTIES ENVIRONMENT "${RT_ENV};${env}" TIMEOUT 120)
endfunction()

rt_add_test(runtime_pacing_90hz "XRTEST_FRAME_RATE=90"
	rtt_pacing --rate 90 --frames 300)
rt_add_test(runtime_pacing_default_is_90hz ""
	rtt_pacing --rate 90 --frames 90)
set_tests_properties(runtime_pacing_default_is_90hz PROPERTIES
	ENVIRONMENT_MODIFICATION "XRTEST_FRAME_RATE=unset:")
rt_add_test(runtime_pacing_120hz "XRTEST_FRAME_RATE=120"
	rtt_pacing --rate 120 --frames 240)
rt_add_test(runtime_pacing_unpaced "XRTEST_FRAME_RATE=0"
	rtt_pacing --rate 0 --frames 300)
rt_add_test(runtime_compositor_cpu "XRTEST_FRAME_RATE=0;XRTEST_COMPOSITOR_CPU_US=3000"
	rtt_pacing --rate 0 --frames 100 --cpu-us 3000)
# Timing tests run alone (PROCESSORS 2 on a 2-core machine): a test that
# keeps the CPUs busy (lavapipe) could make the client miss whole periods,
# and the compositor's 3 ms wait read 4.09 ms a frame beside one (CI, 2026-11-28).
set_tests_properties(runtime_pacing_90hz runtime_pacing_default_is_90hz runtime_pacing_120hz
	runtime_compositor_cpu PROPERTIES PROCESSORS 2)
rt_add_test(runtime_exit_after_frames "XRTEST_FRAME_RATE=0;XRTEST_EXIT_AFTER_FRAMES=50"
	rtt_pacing --rate 0 --frames 50 --expect-exit)
rt_add_test(runtime_endframe_validation "XRTEST_FRAME_RATE=0"
	rtt_endframe)
rt_add_test(runtime_bad_handles "XRTEST_FRAME_RATE=0"
	rtt_handles $<TARGET_FILE:xrlm_test_runtime>)
rt_add_test(runtime_bad_knobs ""
	${CMAKE_CURRENT_SOURCE_DIR}/knobs.sh $<TARGET_FILE:rtt_pacing> ${XRLM_TEST_RUNTIME_JSON})
rt_add_test(runtime_core_validation_catches_invalid_call "XRTEST_FRAME_RATE=0"
	${CMAKE_CURRENT_SOURCE_DIR}/hello_xr.sh --self-test $<TARGET_FILE:rtt_invalid_call>
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

add_executable(rtt_swapchain rtt_swapchain.c)
target_link_libraries(rtt_swapchain PRIVATE rtt_common Vulkan::Vulkan)
rt_add_test(runtime_swapchain_vulkan "XRTEST_FRAME_RATE=0;XRTEST_COMPOSITOR_GPU_US=200"
	rtt_swapchain)
