rv32ui_sc_tests = \
	add addi \
	lw # lb \
	sw

rv32ui_p_tests = $(addprefix rv32ui-p-, $(rv32ui_sc_tests))
rv32um_sc_tests := mul div
rv32uf_sc_tests += fadd
