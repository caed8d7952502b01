# ctest cases of the synthetic target layer (tt_test.sh says what each does).
set(TT_TEST ${CMAKE_CURRENT_SOURCE_DIR}/tt_test.sh ${CMAKE_BINARY_DIR}
	$<TARGET_FILE:xrlm-test-app> $<TARGET_FILE:xrlm_test_target>)

foreach(case exports passthrough cpu-burn gpu-work gpu-log app-load gpu-wait gpu-gated validation bad-knobs
		fn-cpu fn-bad-knobs fn-answer fn-induce fn-thread)
	string(REPLACE "-" "_" name "target_${case}")
	add_test(NAME ${name} COMMAND ${TT_TEST} ${case})
	set_tests_properties(${name} PROPERTIES TIMEOUT 300)
endforeach()
# Timing tests measure wall-clock medians, and the monitor's gate watchdog
# is a 50 ms timer: keep other tests off the 2 cores.
set_tests_properties(target_cpu_burn target_fn_cpu target_fn_thread target_gpu_work target_app_load target_gpu_gated
	PROPERTIES RUN_SERIAL TRUE)
# The target's own thread and its calls beside the app's: under TSan too
# (scripts/run-sanitizers runs the label).
set_tests_properties(target_fn_thread target_fn_induce PROPERTIES LABELS tsan)
