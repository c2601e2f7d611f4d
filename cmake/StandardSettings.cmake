# One INTERFACE target carries the flags every netdoctor target links privately.
add_library(netdoctor_settings INTERFACE)
target_compile_features(netdoctor_settings INTERFACE cxx_std_20)
target_compile_options(netdoctor_settings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Wunused -Woverloaded-virtual -Wconversion -Wsign-conversion -Wnull-dereference
  -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
# GCC 12's optimiser reports -Wnull-dereference inside libstdc++ (basic_string, streambuf,
# iterators) at -O2; the check stays on where it is precise: Debug builds and clang.
target_compile_options(netdoctor_settings INTERFACE
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<NOT:$<CONFIG:Debug>>>:-Wno-null-dereference>)
if(NETDOCTOR_WERROR)
  target_compile_options(netdoctor_settings INTERFACE -Werror)
endif()
target_compile_definitions(netdoctor_settings INTERFACE $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>)
target_include_directories(netdoctor_settings INTERFACE ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
if(NETDOCTOR_ENABLE_ASAN)
  target_compile_options(netdoctor_settings INTERFACE -fsanitize=address -fno-omit-frame-pointer)
  target_link_options(netdoctor_settings INTERFACE -fsanitize=address)
endif()
if(NETDOCTOR_ENABLE_UBSAN)
  target_compile_options(netdoctor_settings INTERFACE -fsanitize=undefined -fno-sanitize-recover=undefined)
  target_link_options(netdoctor_settings INTERFACE -fsanitize=undefined)
endif()
