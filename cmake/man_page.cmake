# Renders vkfluid's --help and every command's --help as a man page (roff):
#   cmake -DVKFLUID=path/to/vkfluid -DOUT=vkfluid.1 -DVERSION=x.y.z -P man_page.cmake
# The help texts are the page's sections, verbatim (.nf), so the page says
# exactly what the program says.
foreach(var VKFLUID OUT VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_page.cmake needs -D${var}=...")
  endif()
endforeach()

function(help_text out_var)
  execute_process(COMMAND ${VKFLUID} ${ARGN} --help RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  # roff: backslashes, then minus signs, then lines that start with . or '
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

help_text(main)
if(main STREQUAL "")
  message(FATAL_ERROR "${VKFLUID} --help failed")
endif()
set(page ".TH VKFLUID 1 \"\" \"vkfluid ${VERSION}\" \"User Commands\"
.SH NAME
vkfluid \\- real\\-time GPU fluid simulation and rendering on Vulkan compute
.SH SYNOPSIS
.B vkfluid
.I command
[\\fIoptions\\fR]
.br
.B vkfluid
.I command
.B \\-\\-help
.SH DESCRIPTION
.nf
${main}.fi
.SH COMMANDS
Each command's \\fB\\-\\-help\\fR, as the program prints it.
")
foreach(cmd devices scenes run capture view bench compare selftest)
  help_text(text ${cmd})
  if(text STREQUAL "")
    continue() # view without the viewer built
  endif()
  string(APPEND page ".SS vkfluid ${cmd}\n.nf\n${text}.fi\n")
endforeach()
string(APPEND page ".SH FILES
.TP
.I share/vkfluid/scenes/*.json
the built\\-in scenes as files (the program has them compiled in): starting points for scene files
.TP
.I share/vkfluid/models/*.json
the device files of the roofline model (\\fBvkfluid bench \\-\\-model\\fR)
.SH SEE ALSO
The documentation in the source tree: README.md and docs/*.md.
")
file(WRITE ${OUT}.tmp "${page}")
file(RENAME ${OUT}.tmp ${OUT})
