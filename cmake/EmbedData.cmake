# netdoctor_embed(TARGET NAME FILES...): compiles data files (kb, playbooks, counter tables)
# into the binary so a run never depends on the install tree; each file keeps its name for
# error messages. Provides `netdoctor::embedded::<NAME>()` returning {name, text} pairs.
function(netdoctor_embed target name)
  set(out_cc "${PROJECT_BINARY_DIR}/generated/embedded_${name}.cc")
  set(script "${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake")
  add_custom_command(OUTPUT ${out_cc}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cc} -DNAME=${name} -DROOT=${PROJECT_SOURCE_DIR}
            "-DFILES=${ARGN}" -P ${script}
    DEPENDS ${ARGN} ${script}
    COMMENT "Embedding ${name} data")
  target_sources(${target} PRIVATE ${out_cc})
endfunction()
