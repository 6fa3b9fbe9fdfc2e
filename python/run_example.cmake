# Run examples/train_graphsage.py and check that its last line is test_acc=<v> with
# v >= MIN_ACC. Arguments: PYTHON, SCRIPT, DATA, MIN_ACC, METRIC (default test_acc; cmake -D...). A DATA directory
# that does not exist prints "SKIPPED: ..." (the test's SKIP_REGULAR_EXPRESSION).
if(NOT EXISTS "${DATA}")
  message("SKIPPED: ${DATA} is absent")
  return()
endif()
execute_process(COMMAND ${PYTHON} ${SCRIPT} --data ${DATA}
  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} exited with ${rc}")
endif()
string(STRIP "${out}" out)
string(REGEX MATCH "[^\n]*$" last "${out}")
if(NOT DEFINED METRIC)
  set(METRIC test_acc)
endif()
if(NOT last MATCHES "^${METRIC}=([0-9.]+)$")
  message(FATAL_ERROR "last line is not ${METRIC}=<value>: '${last}'")
endif()
set(acc ${CMAKE_MATCH_1})
# if(LESS) compares the two strings as floating-point numbers.
if(acc LESS MIN_ACC)
  message(FATAL_ERROR "${METRIC} ${acc} is below ${MIN_ACC}")
endif()
message(STATUS "${METRIC} ${acc} >= ${MIN_ACC}")
