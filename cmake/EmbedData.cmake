# netdoctor_embed(TARGET NAME FILES...): compiles data files (kb, playbooks, counter tables)
# into the binary so a run never depends on the install tree; each file keeps its name for
# error messages. Provides `netdoctor::embedded::<NAME>()` returning {name, text} pairs.
function(netdoctor_embed target name)
  set(out_cc "${PROJECT_BINARY_DIR}/generated/embedded_${name}.cc")
  set(script "${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake")
  # ';' would split the command in the shell: pass the list with '|' instead.
  string(REPLACE ";" "|" files_arg "${ARGN}")
  add_custom_command(OUTPUT ${out_cc}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cc} -DNAME=${name} -DROOT=${PROJECT_SOURCE_DIR}
            "-DFILES=${files_arg}" -P ${script}
    DEPENDS ${ARGN} ${script}
    COMMENT "Embedding ${name} data"
    VERBATIM)
  target_sources(${target} PRIVATE ${out_cc})
endfunction()
