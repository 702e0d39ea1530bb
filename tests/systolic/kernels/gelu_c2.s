; gelu_c2: written (generated and list-scheduled) by a new user from kcraft isa, task show and docs/systolic.md
; alone; kept as the very good kernels the attainable bound must stay under and near (SystolicBounds).
S_LI r1, ROW_BYTES
S_LI r2, ADDR_X
H_LOAD_V r0, r2, r1, 4
S_LI r3, 4
S_LI r2, ADDR_X + 4 * ROW_BYTES
H_LOAD_V r3, r2, r1, 12
S_LI r3, 16
S_LI r2, ADDR_X + 16 * ROW_BYTES
H_LOAD_V r3, r2, r1, 112
S_LI r4, 256
S_LI_FP f1, -0.07135481627260025
S_LI_FP f2, -1.5957691216057308
S_LI_FP f3, 1.0
V_MUL_VV r4, r0, r0, 0
V_MUL_VV r4, r0, r0, 1
V_MUL_VV r4, r0, r0, 2
V_MUL_VV r4, r0, r0, 3
V_MUL_VF r4, r4, f1, 0
V_MUL_VF r4, r4, f1, 1
V_MUL_VF r4, r4, f1, 2
V_MUL_VF r4, r4, f1, 3
V_ADD_VF r4, r4, f2, 0
V_ADD_VF r4, r4, f2, 1
V_ADD_VF r4, r4, f2, 2
V_ADD_VF r4, r4, f2, 3
V_MUL_VV r4, r4, r0, 0
V_MUL_VV r4, r4, r0, 1
V_MUL_VV r4, r4, r0, 2
V_MUL_VV r4, r4, r0, 3
V_EXP_V r4, r4, 0
V_EXP_V r4, r4, 1
V_EXP_V r4, r4, 2
V_EXP_V r4, r4, 3
V_ADD_VF r4, r4, f3, 0
V_ADD_VF r4, r4, f3, 1
V_ADD_VF r4, r4, f3, 2
V_ADD_VF r4, r4, f3, 3
V_RECI_V r4, r4, 0
V_RECI_V r4, r4, 1
V_RECI_V r4, r4, 2
V_RECI_V r4, r4, 3
V_MUL_VV r0, r4, r0, 0
V_MUL_VV r0, r4, r0, 1
V_MUL_VV r0, r4, r0, 2
V_MUL_VV r0, r4, r0, 3
V_MUL_VV r4, r0, r0, 4
V_MUL_VV r4, r0, r0, 5
V_MUL_VV r4, r0, r0, 6
V_MUL_VV r4, r0, r0, 7
V_MUL_VF r4, r4, f1, 4
V_MUL_VF r4, r4, f1, 5
V_MUL_VF r4, r4, f1, 6
V_MUL_VF r4, r4, f1, 7
V_ADD_VF r4, r4, f2, 4
V_ADD_VF r4, r4, f2, 5
V_ADD_VF r4, r4, f2, 6
V_ADD_VF r4, r4, f2, 7
V_MUL_VV r4, r4, r0, 4
V_MUL_VV r4, r4, r0, 5
V_MUL_VV r4, r4, r0, 6
V_MUL_VV r4, r4, r0, 7
V_EXP_V r4, r4, 4
V_EXP_V r4, r4, 5
V_EXP_V r4, r4, 6
V_EXP_V r4, r4, 7
V_ADD_VF r4, r4, f3, 4
V_ADD_VF r4, r4, f3, 5
V_ADD_VF r4, r4, f3, 6
V_ADD_VF r4, r4, f3, 7
V_RECI_V r4, r4, 4
V_RECI_V r4, r4, 5
V_RECI_V r4, r4, 6
V_RECI_V r4, r4, 7
V_MUL_VV r0, r4, r0, 4
V_MUL_VV r0, r4, r0, 5
V_MUL_VV r0, r4, r0, 6
V_MUL_VV r0, r4, r0, 7
V_MUL_VV r4, r0, r0, 8
V_MUL_VV r4, r0, r0, 9
V_MUL_VV r4, r0, r0, 10
V_MUL_VV r4, r0, r0, 11
V_MUL_VF r4, r4, f1, 8
V_MUL_VF r4, r4, f1, 9
V_MUL_VF r4, r4, f1, 10
V_MUL_VF r4, r4, f1, 11
V_ADD_VF r4, r4, f2, 8
V_ADD_VF r4, r4, f2, 9
V_ADD_VF r4, r4, f2, 10
V_ADD_VF r4, r4, f2, 11
V_MUL_VV r4, r4, r0, 8
V_MUL_VV r4, r4, r0, 9
V_MUL_VV r4, r4, r0, 10
V_MUL_VV r4, r4, r0, 11
V_EXP_V r4, r4, 8
V_EXP_V r4, r4, 9
V_EXP_V r4, r4, 10
V_EXP_V r4, r4, 11
V_ADD_VF r4, r4, f3, 8
V_ADD_VF r4, r4, f3, 9
V_ADD_VF r4, r4, f3, 10
V_ADD_VF r4, r4, f3, 11
V_RECI_V r4, r4, 8
V_RECI_V r4, r4, 9
V_RECI_V r4, r4, 10
V_RECI_V r4, r4, 11
V_MUL_VV r0, r4, r0, 8
V_MUL_VV r0, r4, r0, 9
V_MUL_VV r0, r4, r0, 10
V_MUL_VV r0, r4, r0, 11
V_MUL_VV r4, r0, r0, 12
V_MUL_VV r4, r0, r0, 13
V_MUL_VV r4, r0, r0, 14
V_MUL_VV r4, r0, r0, 15
V_MUL_VF r4, r4, f1, 12
V_MUL_VF r4, r4, f1, 13
V_MUL_VF r4, r4, f1, 14
V_MUL_VF r4, r4, f1, 15
V_ADD_VF r4, r4, f2, 12
V_ADD_VF r4, r4, f2, 13
V_ADD_VF r4, r4, f2, 14
V_ADD_VF r4, r4, f2, 15
V_MUL_VV r4, r4, r0, 12
V_MUL_VV r4, r4, r0, 13
V_MUL_VV r4, r4, r0, 14
V_MUL_VV r4, r4, r0, 15
V_EXP_V r4, r4, 12
V_EXP_V r4, r4, 13
V_EXP_V r4, r4, 14
V_EXP_V r4, r4, 15
V_ADD_VF r4, r4, f3, 12
V_ADD_VF r4, r4, f3, 13
V_ADD_VF r4, r4, f3, 14
V_ADD_VF r4, r4, f3, 15
V_RECI_V r4, r4, 12
V_RECI_V r4, r4, 13
V_RECI_V r4, r4, 14
V_RECI_V r4, r4, 15
V_MUL_VV r0, r4, r0, 12
V_MUL_VV r0, r4, r0, 13
V_MUL_VV r0, r4, r0, 14
V_MUL_VV r0, r4, r0, 15
V_MUL_VV r4, r0, r0, 16
V_MUL_VV r4, r0, r0, 17
V_MUL_VV r4, r0, r0, 18
V_MUL_VV r4, r0, r0, 19
V_MUL_VF r4, r4, f1, 16
V_MUL_VF r4, r4, f1, 17
V_MUL_VF r4, r4, f1, 18
V_MUL_VF r4, r4, f1, 19
V_ADD_VF r4, r4, f2, 16
V_ADD_VF r4, r4, f2, 17
V_ADD_VF r4, r4, f2, 18
V_ADD_VF r4, r4, f2, 19
V_MUL_VV r4, r4, r0, 16
V_MUL_VV r4, r4, r0, 17
V_MUL_VV r4, r4, r0, 18
V_MUL_VV r4, r4, r0, 19
V_EXP_V r4, r4, 16
V_EXP_V r4, r4, 17
V_EXP_V r4, r4, 18
V_EXP_V r4, r4, 19
V_ADD_VF r4, r4, f3, 16
V_ADD_VF r4, r4, f3, 17
V_ADD_VF r4, r4, f3, 18
V_ADD_VF r4, r4, f3, 19
V_RECI_V r4, r4, 16
V_RECI_V r4, r4, 17
V_RECI_V r4, r4, 18
V_RECI_V r4, r4, 19
V_MUL_VV r0, r4, r0, 16
V_MUL_VV r0, r4, r0, 17
V_MUL_VV r0, r4, r0, 18
V_MUL_VV r0, r4, r0, 19
V_MUL_VV r4, r0, r0, 20
V_MUL_VV r4, r0, r0, 21
V_MUL_VV r4, r0, r0, 22
V_MUL_VV r4, r0, r0, 23
V_MUL_VF r4, r4, f1, 20
V_MUL_VF r4, r4, f1, 21
V_MUL_VF r4, r4, f1, 22
V_MUL_VF r4, r4, f1, 23
V_ADD_VF r4, r4, f2, 20
V_ADD_VF r4, r4, f2, 21
V_ADD_VF r4, r4, f2, 22
V_ADD_VF r4, r4, f2, 23
V_MUL_VV r4, r4, r0, 20
V_MUL_VV r4, r4, r0, 21
V_MUL_VV r4, r4, r0, 22
V_MUL_VV r4, r4, r0, 23
V_EXP_V r4, r4, 20
V_EXP_V r4, r4, 21
V_EXP_V r4, r4, 22
V_EXP_V r4, r4, 23
V_ADD_VF r4, r4, f3, 20
V_ADD_VF r4, r4, f3, 21
V_ADD_VF r4, r4, f3, 22
V_ADD_VF r4, r4, f3, 23
V_RECI_V r4, r4, 20
V_RECI_V r4, r4, 21
V_RECI_V r4, r4, 22
V_RECI_V r4, r4, 23
V_MUL_VV r0, r4, r0, 20
V_MUL_VV r0, r4, r0, 21
V_MUL_VV r0, r4, r0, 22
V_MUL_VV r0, r4, r0, 23
V_MUL_VV r4, r0, r0, 24
V_MUL_VV r4, r0, r0, 25
V_MUL_VV r4, r0, r0, 26
V_MUL_VV r4, r0, r0, 27
V_MUL_VF r4, r4, f1, 24
V_MUL_VF r4, r4, f1, 25
V_MUL_VF r4, r4, f1, 26
V_MUL_VF r4, r4, f1, 27
V_ADD_VF r4, r4, f2, 24
V_ADD_VF r4, r4, f2, 25
V_ADD_VF r4, r4, f2, 26
V_ADD_VF r4, r4, f2, 27
V_MUL_VV r4, r4, r0, 24
V_MUL_VV r4, r4, r0, 25
V_MUL_VV r4, r4, r0, 26
V_MUL_VV r4, r4, r0, 27
V_EXP_V r4, r4, 24
V_EXP_V r4, r4, 25
V_EXP_V r4, r4, 26
V_EXP_V r4, r4, 27
V_ADD_VF r4, r4, f3, 24
V_ADD_VF r4, r4, f3, 25
V_ADD_VF r4, r4, f3, 26
V_ADD_VF r4, r4, f3, 27
V_RECI_V r4, r4, 24
V_RECI_V r4, r4, 25
V_RECI_V r4, r4, 26
V_RECI_V r4, r4, 27
V_MUL_VV r0, r4, r0, 24
V_MUL_VV r0, r4, r0, 25
V_MUL_VV r0, r4, r0, 26
V_MUL_VV r0, r4, r0, 27
V_MUL_VV r4, r0, r0, 28
V_MUL_VV r4, r0, r0, 29
V_MUL_VV r4, r0, r0, 30
V_MUL_VV r4, r0, r0, 31
V_MUL_VF r4, r4, f1, 28
V_MUL_VF r4, r4, f1, 29
V_MUL_VF r4, r4, f1, 30
V_MUL_VF r4, r4, f1, 31
V_ADD_VF r4, r4, f2, 28
V_ADD_VF r4, r4, f2, 29
V_ADD_VF r4, r4, f2, 30
V_ADD_VF r4, r4, f2, 31
V_MUL_VV r4, r4, r0, 28
V_MUL_VV r4, r4, r0, 29
V_MUL_VV r4, r4, r0, 30
V_MUL_VV r4, r4, r0, 31
V_EXP_V r4, r4, 28
V_EXP_V r4, r4, 29
V_EXP_V r4, r4, 30
V_EXP_V r4, r4, 31
V_ADD_VF r4, r4, f3, 28
V_ADD_VF r4, r4, f3, 29
V_ADD_VF r4, r4, f3, 30
V_ADD_VF r4, r4, f3, 31
V_RECI_V r4, r4, 28
V_RECI_V r4, r4, 29
V_RECI_V r4, r4, 30
V_RECI_V r4, r4, 31
V_MUL_VV r0, r4, r0, 28
V_MUL_VV r0, r4, r0, 29
V_MUL_VV r0, r4, r0, 30
V_MUL_VV r0, r4, r0, 31
S_LI r3, 0
S_LI r2, ADDR_Y + 0 * ROW_BYTES
H_STORE_V r3, r2, r1, 32
V_MUL_VV r4, r0, r0, 32
V_MUL_VV r4, r0, r0, 33
V_MUL_VV r4, r0, r0, 34
V_MUL_VV r4, r0, r0, 35
V_MUL_VF r4, r4, f1, 32
V_MUL_VF r4, r4, f1, 33
V_MUL_VF r4, r4, f1, 34
V_MUL_VF r4, r4, f1, 35
V_ADD_VF r4, r4, f2, 32
V_ADD_VF r4, r4, f2, 33
V_ADD_VF r4, r4, f2, 34
V_ADD_VF r4, r4, f2, 35
V_MUL_VV r4, r4, r0, 32
V_MUL_VV r4, r4, r0, 33
V_MUL_VV r4, r4, r0, 34
V_MUL_VV r4, r4, r0, 35
V_EXP_V r4, r4, 32
V_EXP_V r4, r4, 33
V_EXP_V r4, r4, 34
V_EXP_V r4, r4, 35
V_ADD_VF r4, r4, f3, 32
V_ADD_VF r4, r4, f3, 33
V_ADD_VF r4, r4, f3, 34
V_ADD_VF r4, r4, f3, 35
V_RECI_V r4, r4, 32
V_RECI_V r4, r4, 33
V_RECI_V r4, r4, 34
V_RECI_V r4, r4, 35
V_MUL_VV r0, r4, r0, 32
V_MUL_VV r0, r4, r0, 33
V_MUL_VV r0, r4, r0, 34
V_MUL_VV r0, r4, r0, 35
V_MUL_VV r4, r0, r0, 36
V_MUL_VV r4, r0, r0, 37
V_MUL_VV r4, r0, r0, 38
V_MUL_VV r4, r0, r0, 39
V_MUL_VF r4, r4, f1, 36
V_MUL_VF r4, r4, f1, 37
V_MUL_VF r4, r4, f1, 38
V_MUL_VF r4, r4, f1, 39
V_ADD_VF r4, r4, f2, 36
V_ADD_VF r4, r4, f2, 37
V_ADD_VF r4, r4, f2, 38
V_ADD_VF r4, r4, f2, 39
V_MUL_VV r4, r4, r0, 36
V_MUL_VV r4, r4, r0, 37
V_MUL_VV r4, r4, r0, 38
V_MUL_VV r4, r4, r0, 39
V_EXP_V r4, r4, 36
V_EXP_V r4, r4, 37
V_EXP_V r4, r4, 38
V_EXP_V r4, r4, 39
V_ADD_VF r4, r4, f3, 36
V_ADD_VF r4, r4, f3, 37
V_ADD_VF r4, r4, f3, 38
V_ADD_VF r4, r4, f3, 39
V_RECI_V r4, r4, 36
V_RECI_V r4, r4, 37
V_RECI_V r4, r4, 38
V_RECI_V r4, r4, 39
V_MUL_VV r0, r4, r0, 36
V_MUL_VV r0, r4, r0, 37
V_MUL_VV r0, r4, r0, 38
V_MUL_VV r0, r4, r0, 39
V_MUL_VV r4, r0, r0, 40
V_MUL_VV r4, r0, r0, 41
V_MUL_VV r4, r0, r0, 42
V_MUL_VV r4, r0, r0, 43
V_MUL_VF r4, r4, f1, 40
V_MUL_VF r4, r4, f1, 41
V_MUL_VF r4, r4, f1, 42
V_MUL_VF r4, r4, f1, 43
V_ADD_VF r4, r4, f2, 40
V_ADD_VF r4, r4, f2, 41
V_ADD_VF r4, r4, f2, 42
V_ADD_VF r4, r4, f2, 43
V_MUL_VV r4, r4, r0, 40
V_MUL_VV r4, r4, r0, 41
V_MUL_VV r4, r4, r0, 42
V_MUL_VV r4, r4, r0, 43
V_EXP_V r4, r4, 40
V_EXP_V r4, r4, 41
V_EXP_V r4, r4, 42
V_EXP_V r4, r4, 43
V_ADD_VF r4, r4, f3, 40
V_ADD_VF r4, r4, f3, 41
V_ADD_VF r4, r4, f3, 42
V_ADD_VF r4, r4, f3, 43
V_RECI_V r4, r4, 40
V_RECI_V r4, r4, 41
V_RECI_V r4, r4, 42
V_RECI_V r4, r4, 43
V_MUL_VV r0, r4, r0, 40
V_MUL_VV r0, r4, r0, 41
V_MUL_VV r0, r4, r0, 42
V_MUL_VV r0, r4, r0, 43
V_MUL_VV r4, r0, r0, 44
V_MUL_VV r4, r0, r0, 45
V_MUL_VV r4, r0, r0, 46
V_MUL_VV r4, r0, r0, 47
V_MUL_VF r4, r4, f1, 44
V_MUL_VF r4, r4, f1, 45
V_MUL_VF r4, r4, f1, 46
V_MUL_VF r4, r4, f1, 47
V_ADD_VF r4, r4, f2, 44
V_ADD_VF r4, r4, f2, 45
V_ADD_VF r4, r4, f2, 46
V_ADD_VF r4, r4, f2, 47
V_MUL_VV r4, r4, r0, 44
V_MUL_VV r4, r4, r0, 45
V_MUL_VV r4, r4, r0, 46
V_MUL_VV r4, r4, r0, 47
V_EXP_V r4, r4, 44
V_EXP_V r4, r4, 45
V_EXP_V r4, r4, 46
V_EXP_V r4, r4, 47
V_ADD_VF r4, r4, f3, 44
V_ADD_VF r4, r4, f3, 45
V_ADD_VF r4, r4, f3, 46
V_ADD_VF r4, r4, f3, 47
V_RECI_V r4, r4, 44
V_RECI_V r4, r4, 45
V_RECI_V r4, r4, 46
V_RECI_V r4, r4, 47
V_MUL_VV r0, r4, r0, 44
V_MUL_VV r0, r4, r0, 45
V_MUL_VV r0, r4, r0, 46
V_MUL_VV r0, r4, r0, 47
V_MUL_VV r4, r0, r0, 48
V_MUL_VV r4, r0, r0, 49
V_MUL_VV r4, r0, r0, 50
V_MUL_VV r4, r0, r0, 51
V_MUL_VF r4, r4, f1, 48
V_MUL_VF r4, r4, f1, 49
V_MUL_VF r4, r4, f1, 50
V_MUL_VF r4, r4, f1, 51
V_ADD_VF r4, r4, f2, 48
V_ADD_VF r4, r4, f2, 49
V_ADD_VF r4, r4, f2, 50
V_ADD_VF r4, r4, f2, 51
V_MUL_VV r4, r4, r0, 48
V_MUL_VV r4, r4, r0, 49
V_MUL_VV r4, r4, r0, 50
V_MUL_VV r4, r4, r0, 51
V_EXP_V r4, r4, 48
V_EXP_V r4, r4, 49
V_EXP_V r4, r4, 50
V_EXP_V r4, r4, 51
V_ADD_VF r4, r4, f3, 48
V_ADD_VF r4, r4, f3, 49
V_ADD_VF r4, r4, f3, 50
V_ADD_VF r4, r4, f3, 51
V_RECI_V r4, r4, 48
V_RECI_V r4, r4, 49
V_RECI_V r4, r4, 50
V_RECI_V r4, r4, 51
V_MUL_VV r0, r4, r0, 48
V_MUL_VV r0, r4, r0, 49
V_MUL_VV r0, r4, r0, 50
V_MUL_VV r0, r4, r0, 51
V_MUL_VV r4, r0, r0, 52
V_MUL_VV r4, r0, r0, 53
V_MUL_VV r4, r0, r0, 54
V_MUL_VV r4, r0, r0, 55
V_MUL_VF r4, r4, f1, 52
V_MUL_VF r4, r4, f1, 53
V_MUL_VF r4, r4, f1, 54
V_MUL_VF r4, r4, f1, 55
V_ADD_VF r4, r4, f2, 52
V_ADD_VF r4, r4, f2, 53
V_ADD_VF r4, r4, f2, 54
V_ADD_VF r4, r4, f2, 55
V_MUL_VV r4, r4, r0, 52
V_MUL_VV r4, r4, r0, 53
V_MUL_VV r4, r4, r0, 54
V_MUL_VV r4, r4, r0, 55
V_EXP_V r4, r4, 52
V_EXP_V r4, r4, 53
V_EXP_V r4, r4, 54
V_EXP_V r4, r4, 55
V_ADD_VF r4, r4, f3, 52
V_ADD_VF r4, r4, f3, 53
V_ADD_VF r4, r4, f3, 54
V_ADD_VF r4, r4, f3, 55
V_RECI_V r4, r4, 52
V_RECI_V r4, r4, 53
V_RECI_V r4, r4, 54
V_RECI_V r4, r4, 55
V_MUL_VV r0, r4, r0, 52
V_MUL_VV r0, r4, r0, 53
V_MUL_VV r0, r4, r0, 54
V_MUL_VV r0, r4, r0, 55
V_MUL_VV r4, r0, r0, 56
V_MUL_VV r4, r0, r0, 57
V_MUL_VV r4, r0, r0, 58
V_MUL_VV r4, r0, r0, 59
V_MUL_VF r4, r4, f1, 56
V_MUL_VF r4, r4, f1, 57
V_MUL_VF r4, r4, f1, 58
V_MUL_VF r4, r4, f1, 59
V_ADD_VF r4, r4, f2, 56
V_ADD_VF r4, r4, f2, 57
V_ADD_VF r4, r4, f2, 58
V_ADD_VF r4, r4, f2, 59
V_MUL_VV r4, r4, r0, 56
V_MUL_VV r4, r4, r0, 57
V_MUL_VV r4, r4, r0, 58
V_MUL_VV r4, r4, r0, 59
V_EXP_V r4, r4, 56
V_EXP_V r4, r4, 57
V_EXP_V r4, r4, 58
V_EXP_V r4, r4, 59
V_ADD_VF r4, r4, f3, 56
V_ADD_VF r4, r4, f3, 57
V_ADD_VF r4, r4, f3, 58
V_ADD_VF r4, r4, f3, 59
V_RECI_V r4, r4, 56
V_RECI_V r4, r4, 57
V_RECI_V r4, r4, 58
V_RECI_V r4, r4, 59
V_MUL_VV r0, r4, r0, 56
V_MUL_VV r0, r4, r0, 57
V_MUL_VV r0, r4, r0, 58
V_MUL_VV r0, r4, r0, 59
V_MUL_VV r4, r0, r0, 60
V_MUL_VV r4, r0, r0, 61
V_MUL_VV r4, r0, r0, 62
V_MUL_VV r4, r0, r0, 63
V_MUL_VF r4, r4, f1, 60
V_MUL_VF r4, r4, f1, 61
V_MUL_VF r4, r4, f1, 62
V_MUL_VF r4, r4, f1, 63
V_ADD_VF r4, r4, f2, 60
V_ADD_VF r4, r4, f2, 61
V_ADD_VF r4, r4, f2, 62
V_ADD_VF r4, r4, f2, 63
V_MUL_VV r4, r4, r0, 60
V_MUL_VV r4, r4, r0, 61
V_MUL_VV r4, r4, r0, 62
V_MUL_VV r4, r4, r0, 63
V_EXP_V r4, r4, 60
V_EXP_V r4, r4, 61
V_EXP_V r4, r4, 62
V_EXP_V r4, r4, 63
V_ADD_VF r4, r4, f3, 60
V_ADD_VF r4, r4, f3, 61
V_ADD_VF r4, r4, f3, 62
V_ADD_VF r4, r4, f3, 63
V_RECI_V r4, r4, 60
V_RECI_V r4, r4, 61
V_RECI_V r4, r4, 62
V_RECI_V r4, r4, 63
V_MUL_VV r0, r4, r0, 60
V_MUL_VV r0, r4, r0, 61
V_MUL_VV r0, r4, r0, 62
V_MUL_VV r0, r4, r0, 63
S_LI r3, 32
S_LI r2, ADDR_Y + 32 * ROW_BYTES
H_STORE_V r3, r2, r1, 32
V_MUL_VV r4, r0, r0, 64
V_MUL_VV r4, r0, r0, 65
V_MUL_VV r4, r0, r0, 66
V_MUL_VV r4, r0, r0, 67
V_MUL_VF r4, r4, f1, 64
V_MUL_VF r4, r4, f1, 65
V_MUL_VF r4, r4, f1, 66
V_MUL_VF r4, r4, f1, 67
V_ADD_VF r4, r4, f2, 64
V_ADD_VF r4, r4, f2, 65
V_ADD_VF r4, r4, f2, 66
V_ADD_VF r4, r4, f2, 67
V_MUL_VV r4, r4, r0, 64
V_MUL_VV r4, r4, r0, 65
V_MUL_VV r4, r4, r0, 66
V_MUL_VV r4, r4, r0, 67
V_EXP_V r4, r4, 64
V_EXP_V r4, r4, 65
V_EXP_V r4, r4, 66
V_EXP_V r4, r4, 67
V_ADD_VF r4, r4, f3, 64
V_ADD_VF r4, r4, f3, 65
V_ADD_VF r4, r4, f3, 66
V_ADD_VF r4, r4, f3, 67
V_RECI_V r4, r4, 64
V_RECI_V r4, r4, 65
V_RECI_V r4, r4, 66
V_RECI_V r4, r4, 67
V_MUL_VV r0, r4, r0, 64
V_MUL_VV r0, r4, r0, 65
V_MUL_VV r0, r4, r0, 66
V_MUL_VV r0, r4, r0, 67
V_MUL_VV r4, r0, r0, 68
V_MUL_VV r4, r0, r0, 69
V_MUL_VV r4, r0, r0, 70
V_MUL_VV r4, r0, r0, 71
V_MUL_VF r4, r4, f1, 68
V_MUL_VF r4, r4, f1, 69
V_MUL_VF r4, r4, f1, 70
V_MUL_VF r4, r4, f1, 71
V_ADD_VF r4, r4, f2, 68
V_ADD_VF r4, r4, f2, 69
V_ADD_VF r4, r4, f2, 70
V_ADD_VF r4, r4, f2, 71
V_MUL_VV r4, r4, r0, 68
V_MUL_VV r4, r4, r0, 69
V_MUL_VV r4, r4, r0, 70
V_MUL_VV r4, r4, r0, 71
V_EXP_V r4, r4, 68
V_EXP_V r4, r4, 69
V_EXP_V r4, r4, 70
V_EXP_V r4, r4, 71
V_ADD_VF r4, r4, f3, 68
V_ADD_VF r4, r4, f3, 69
V_ADD_VF r4, r4, f3, 70
V_ADD_VF r4, r4, f3, 71
V_RECI_V r4, r4, 68
V_RECI_V r4, r4, 69
V_RECI_V r4, r4, 70
V_RECI_V r4, r4, 71
V_MUL_VV r0, r4, r0, 68
V_MUL_VV r0, r4, r0, 69
V_MUL_VV r0, r4, r0, 70
V_MUL_VV r0, r4, r0, 71
V_MUL_VV r4, r0, r0, 72
V_MUL_VV r4, r0, r0, 73
V_MUL_VV r4, r0, r0, 74
V_MUL_VV r4, r0, r0, 75
V_MUL_VF r4, r4, f1, 72
V_MUL_VF r4, r4, f1, 73
V_MUL_VF r4, r4, f1, 74
V_MUL_VF r4, r4, f1, 75
V_ADD_VF r4, r4, f2, 72
V_ADD_VF r4, r4, f2, 73
V_ADD_VF r4, r4, f2, 74
V_ADD_VF r4, r4, f2, 75
V_MUL_VV r4, r4, r0, 72
V_MUL_VV r4, r4, r0, 73
V_MUL_VV r4, r4, r0, 74
V_MUL_VV r4, r4, r0, 75
V_EXP_V r4, r4, 72
V_EXP_V r4, r4, 73
V_EXP_V r4, r4, 74
V_EXP_V r4, r4, 75
V_ADD_VF r4, r4, f3, 72
V_ADD_VF r4, r4, f3, 73
V_ADD_VF r4, r4, f3, 74
V_ADD_VF r4, r4, f3, 75
V_RECI_V r4, r4, 72
V_RECI_V r4, r4, 73
V_RECI_V r4, r4, 74
V_RECI_V r4, r4, 75
V_MUL_VV r0, r4, r0, 72
V_MUL_VV r0, r4, r0, 73
V_MUL_VV r0, r4, r0, 74
V_MUL_VV r0, r4, r0, 75
V_MUL_VV r4, r0, r0, 76
V_MUL_VV r4, r0, r0, 77
V_MUL_VV r4, r0, r0, 78
V_MUL_VV r4, r0, r0, 79
V_MUL_VF r4, r4, f1, 76
V_MUL_VF r4, r4, f1, 77
V_MUL_VF r4, r4, f1, 78
V_MUL_VF r4, r4, f1, 79
V_ADD_VF r4, r4, f2, 76
V_ADD_VF r4, r4, f2, 77
V_ADD_VF r4, r4, f2, 78
V_ADD_VF r4, r4, f2, 79
V_MUL_VV r4, r4, r0, 76
V_MUL_VV r4, r4, r0, 77
V_MUL_VV r4, r4, r0, 78
V_MUL_VV r4, r4, r0, 79
V_EXP_V r4, r4, 76
V_EXP_V r4, r4, 77
V_EXP_V r4, r4, 78
V_EXP_V r4, r4, 79
V_ADD_VF r4, r4, f3, 76
V_ADD_VF r4, r4, f3, 77
V_ADD_VF r4, r4, f3, 78
V_ADD_VF r4, r4, f3, 79
V_RECI_V r4, r4, 76
V_RECI_V r4, r4, 77
V_RECI_V r4, r4, 78
V_RECI_V r4, r4, 79
V_MUL_VV r0, r4, r0, 76
V_MUL_VV r0, r4, r0, 77
V_MUL_VV r0, r4, r0, 78
V_MUL_VV r0, r4, r0, 79
V_MUL_VV r4, r0, r0, 80
V_MUL_VV r4, r0, r0, 81
V_MUL_VV r4, r0, r0, 82
V_MUL_VV r4, r0, r0, 83
V_MUL_VF r4, r4, f1, 80
V_MUL_VF r4, r4, f1, 81
V_MUL_VF r4, r4, f1, 82
V_MUL_VF r4, r4, f1, 83
V_ADD_VF r4, r4, f2, 80
V_ADD_VF r4, r4, f2, 81
V_ADD_VF r4, r4, f2, 82
V_ADD_VF r4, r4, f2, 83
V_MUL_VV r4, r4, r0, 80
V_MUL_VV r4, r4, r0, 81
V_MUL_VV r4, r4, r0, 82
V_MUL_VV r4, r4, r0, 83
V_EXP_V r4, r4, 80
V_EXP_V r4, r4, 81
V_EXP_V r4, r4, 82
V_EXP_V r4, r4, 83
V_ADD_VF r4, r4, f3, 80
V_ADD_VF r4, r4, f3, 81
V_ADD_VF r4, r4, f3, 82
V_ADD_VF r4, r4, f3, 83
V_RECI_V r4, r4, 80
V_RECI_V r4, r4, 81
V_RECI_V r4, r4, 82
V_RECI_V r4, r4, 83
V_MUL_VV r0, r4, r0, 80
V_MUL_VV r0, r4, r0, 81
V_MUL_VV r0, r4, r0, 82
V_MUL_VV r0, r4, r0, 83
V_MUL_VV r4, r0, r0, 84
V_MUL_VV r4, r0, r0, 85
V_MUL_VV r4, r0, r0, 86
V_MUL_VV r4, r0, r0, 87
V_MUL_VF r4, r4, f1, 84
V_MUL_VF r4, r4, f1, 85
V_MUL_VF r4, r4, f1, 86
V_MUL_VF r4, r4, f1, 87
V_ADD_VF r4, r4, f2, 84
V_ADD_VF r4, r4, f2, 85
V_ADD_VF r4, r4, f2, 86
V_ADD_VF r4, r4, f2, 87
V_MUL_VV r4, r4, r0, 84
V_MUL_VV r4, r4, r0, 85
V_MUL_VV r4, r4, r0, 86
V_MUL_VV r4, r4, r0, 87
V_EXP_V r4, r4, 84
V_EXP_V r4, r4, 85
V_EXP_V r4, r4, 86
V_EXP_V r4, r4, 87
V_ADD_VF r4, r4, f3, 84
V_ADD_VF r4, r4, f3, 85
V_ADD_VF r4, r4, f3, 86
V_ADD_VF r4, r4, f3, 87
V_RECI_V r4, r4, 84
V_RECI_V r4, r4, 85
V_RECI_V r4, r4, 86
V_RECI_V r4, r4, 87
V_MUL_VV r0, r4, r0, 84
V_MUL_VV r0, r4, r0, 85
V_MUL_VV r0, r4, r0, 86
V_MUL_VV r0, r4, r0, 87
V_MUL_VV r4, r0, r0, 88
V_MUL_VV r4, r0, r0, 89
V_MUL_VV r4, r0, r0, 90
V_MUL_VV r4, r0, r0, 91
V_MUL_VF r4, r4, f1, 88
V_MUL_VF r4, r4, f1, 89
V_MUL_VF r4, r4, f1, 90
V_MUL_VF r4, r4, f1, 91
V_ADD_VF r4, r4, f2, 88
V_ADD_VF r4, r4, f2, 89
V_ADD_VF r4, r4, f2, 90
V_ADD_VF r4, r4, f2, 91
V_MUL_VV r4, r4, r0, 88
V_MUL_VV r4, r4, r0, 89
V_MUL_VV r4, r4, r0, 90
V_MUL_VV r4, r4, r0, 91
V_EXP_V r4, r4, 88
V_EXP_V r4, r4, 89
V_EXP_V r4, r4, 90
V_EXP_V r4, r4, 91
V_ADD_VF r4, r4, f3, 88
V_ADD_VF r4, r4, f3, 89
V_ADD_VF r4, r4, f3, 90
V_ADD_VF r4, r4, f3, 91
V_RECI_V r4, r4, 88
V_RECI_V r4, r4, 89
V_RECI_V r4, r4, 90
V_RECI_V r4, r4, 91
V_MUL_VV r0, r4, r0, 88
V_MUL_VV r0, r4, r0, 89
V_MUL_VV r0, r4, r0, 90
V_MUL_VV r0, r4, r0, 91
V_MUL_VV r4, r0, r0, 92
V_MUL_VV r4, r0, r0, 93
V_MUL_VV r4, r0, r0, 94
V_MUL_VV r4, r0, r0, 95
V_MUL_VF r4, r4, f1, 92
V_MUL_VF r4, r4, f1, 93
V_MUL_VF r4, r4, f1, 94
V_MUL_VF r4, r4, f1, 95
V_ADD_VF r4, r4, f2, 92
V_ADD_VF r4, r4, f2, 93
V_ADD_VF r4, r4, f2, 94
V_ADD_VF r4, r4, f2, 95
V_MUL_VV r4, r4, r0, 92
V_MUL_VV r4, r4, r0, 93
V_MUL_VV r4, r4, r0, 94
V_MUL_VV r4, r4, r0, 95
V_EXP_V r4, r4, 92
V_EXP_V r4, r4, 93
V_EXP_V r4, r4, 94
V_EXP_V r4, r4, 95
V_ADD_VF r4, r4, f3, 92
V_ADD_VF r4, r4, f3, 93
V_ADD_VF r4, r4, f3, 94
V_ADD_VF r4, r4, f3, 95
V_RECI_V r4, r4, 92
V_RECI_V r4, r4, 93
V_RECI_V r4, r4, 94
V_RECI_V r4, r4, 95
V_MUL_VV r0, r4, r0, 92
V_MUL_VV r0, r4, r0, 93
V_MUL_VV r0, r4, r0, 94
V_MUL_VV r0, r4, r0, 95
S_LI r3, 64
S_LI r2, ADDR_Y + 64 * ROW_BYTES
H_STORE_V r3, r2, r1, 32
V_MUL_VV r4, r0, r0, 96
V_MUL_VV r4, r0, r0, 97
V_MUL_VV r4, r0, r0, 98
V_MUL_VV r4, r0, r0, 99
V_MUL_VF r4, r4, f1, 96
V_MUL_VF r4, r4, f1, 97
V_MUL_VF r4, r4, f1, 98
V_MUL_VF r4, r4, f1, 99
V_ADD_VF r4, r4, f2, 96
V_ADD_VF r4, r4, f2, 97
V_ADD_VF r4, r4, f2, 98
V_ADD_VF r4, r4, f2, 99
V_MUL_VV r4, r4, r0, 96
V_MUL_VV r4, r4, r0, 97
V_MUL_VV r4, r4, r0, 98
V_MUL_VV r4, r4, r0, 99
V_EXP_V r4, r4, 96
V_EXP_V r4, r4, 97
V_EXP_V r4, r4, 98
V_EXP_V r4, r4, 99
V_ADD_VF r4, r4, f3, 96
V_ADD_VF r4, r4, f3, 97
V_ADD_VF r4, r4, f3, 98
V_ADD_VF r4, r4, f3, 99
V_RECI_V r4, r4, 96
V_RECI_V r4, r4, 97
V_RECI_V r4, r4, 98
V_RECI_V r4, r4, 99
V_MUL_VV r0, r4, r0, 96
V_MUL_VV r0, r4, r0, 97
V_MUL_VV r0, r4, r0, 98
V_MUL_VV r0, r4, r0, 99
V_MUL_VV r4, r0, r0, 100
V_MUL_VV r4, r0, r0, 101
V_MUL_VV r4, r0, r0, 102
V_MUL_VV r4, r0, r0, 103
V_MUL_VF r4, r4, f1, 100
V_MUL_VF r4, r4, f1, 101
V_MUL_VF r4, r4, f1, 102
V_MUL_VF r4, r4, f1, 103
V_ADD_VF r4, r4, f2, 100
V_ADD_VF r4, r4, f2, 101
V_ADD_VF r4, r4, f2, 102
V_ADD_VF r4, r4, f2, 103
V_MUL_VV r4, r4, r0, 100
V_MUL_VV r4, r4, r0, 101
V_MUL_VV r4, r4, r0, 102
V_MUL_VV r4, r4, r0, 103
V_EXP_V r4, r4, 100
V_EXP_V r4, r4, 101
V_EXP_V r4, r4, 102
V_EXP_V r4, r4, 103
V_ADD_VF r4, r4, f3, 100
V_ADD_VF r4, r4, f3, 101
V_ADD_VF r4, r4, f3, 102
V_ADD_VF r4, r4, f3, 103
V_RECI_V r4, r4, 100
V_RECI_V r4, r4, 101
V_RECI_V r4, r4, 102
V_RECI_V r4, r4, 103
V_MUL_VV r0, r4, r0, 100
V_MUL_VV r0, r4, r0, 101
V_MUL_VV r0, r4, r0, 102
V_MUL_VV r0, r4, r0, 103
V_MUL_VV r4, r0, r0, 104
V_MUL_VV r4, r0, r0, 105
V_MUL_VV r4, r0, r0, 106
V_MUL_VV r4, r0, r0, 107
V_MUL_VF r4, r4, f1, 104
V_MUL_VF r4, r4, f1, 105
V_MUL_VF r4, r4, f1, 106
V_MUL_VF r4, r4, f1, 107
V_ADD_VF r4, r4, f2, 104
V_ADD_VF r4, r4, f2, 105
V_ADD_VF r4, r4, f2, 106
V_ADD_VF r4, r4, f2, 107
V_MUL_VV r4, r4, r0, 104
V_MUL_VV r4, r4, r0, 105
V_MUL_VV r4, r4, r0, 106
V_MUL_VV r4, r4, r0, 107
V_EXP_V r4, r4, 104
V_EXP_V r4, r4, 105
V_EXP_V r4, r4, 106
V_EXP_V r4, r4, 107
V_ADD_VF r4, r4, f3, 104
V_ADD_VF r4, r4, f3, 105
V_ADD_VF r4, r4, f3, 106
V_ADD_VF r4, r4, f3, 107
V_RECI_V r4, r4, 104
V_RECI_V r4, r4, 105
V_RECI_V r4, r4, 106
V_RECI_V r4, r4, 107
V_MUL_VV r0, r4, r0, 104
V_MUL_VV r0, r4, r0, 105
V_MUL_VV r0, r4, r0, 106
V_MUL_VV r0, r4, r0, 107
V_MUL_VV r4, r0, r0, 108
V_MUL_VV r4, r0, r0, 109
V_MUL_VV r4, r0, r0, 110
V_MUL_VV r4, r0, r0, 111
V_MUL_VF r4, r4, f1, 108
V_MUL_VF r4, r4, f1, 109
V_MUL_VF r4, r4, f1, 110
V_MUL_VF r4, r4, f1, 111
V_ADD_VF r4, r4, f2, 108
V_ADD_VF r4, r4, f2, 109
V_ADD_VF r4, r4, f2, 110
V_ADD_VF r4, r4, f2, 111
V_MUL_VV r4, r4, r0, 108
V_MUL_VV r4, r4, r0, 109
V_MUL_VV r4, r4, r0, 110
V_MUL_VV r4, r4, r0, 111
V_EXP_V r4, r4, 108
V_EXP_V r4, r4, 109
V_EXP_V r4, r4, 110
V_EXP_V r4, r4, 111
V_ADD_VF r4, r4, f3, 108
V_ADD_VF r4, r4, f3, 109
V_ADD_VF r4, r4, f3, 110
V_ADD_VF r4, r4, f3, 111
V_RECI_V r4, r4, 108
V_RECI_V r4, r4, 109
V_RECI_V r4, r4, 110
V_RECI_V r4, r4, 111
V_MUL_VV r0, r4, r0, 108
V_MUL_VV r0, r4, r0, 109
V_MUL_VV r0, r4, r0, 110
V_MUL_VV r0, r4, r0, 111
V_MUL_VV r4, r0, r0, 112
V_MUL_VV r4, r0, r0, 113
V_MUL_VV r4, r0, r0, 114
V_MUL_VV r4, r0, r0, 115
V_MUL_VF r4, r4, f1, 112
V_MUL_VF r4, r4, f1, 113
V_MUL_VF r4, r4, f1, 114
V_MUL_VF r4, r4, f1, 115
V_ADD_VF r4, r4, f2, 112
V_ADD_VF r4, r4, f2, 113
V_ADD_VF r4, r4, f2, 114
V_ADD_VF r4, r4, f2, 115
V_MUL_VV r4, r4, r0, 112
V_MUL_VV r4, r4, r0, 113
V_MUL_VV r4, r4, r0, 114
V_MUL_VV r4, r4, r0, 115
V_EXP_V r4, r4, 112
V_EXP_V r4, r4, 113
V_EXP_V r4, r4, 114
V_EXP_V r4, r4, 115
V_ADD_VF r4, r4, f3, 112
V_ADD_VF r4, r4, f3, 113
V_ADD_VF r4, r4, f3, 114
V_ADD_VF r4, r4, f3, 115
V_RECI_V r4, r4, 112
V_RECI_V r4, r4, 113
V_RECI_V r4, r4, 114
V_RECI_V r4, r4, 115
V_MUL_VV r0, r4, r0, 112
V_MUL_VV r0, r4, r0, 113
V_MUL_VV r0, r4, r0, 114
V_MUL_VV r0, r4, r0, 115
S_LI r3, 96
S_LI r2, ADDR_Y + 96 * ROW_BYTES
H_STORE_V r3, r2, r1, 20
V_MUL_VV r4, r0, r0, 116
V_MUL_VV r4, r0, r0, 117
V_MUL_VV r4, r0, r0, 118
V_MUL_VV r4, r0, r0, 119
V_MUL_VF r4, r4, f1, 116
V_MUL_VF r4, r4, f1, 117
V_MUL_VF r4, r4, f1, 118
V_MUL_VF r4, r4, f1, 119
V_ADD_VF r4, r4, f2, 116
V_ADD_VF r4, r4, f2, 117
V_ADD_VF r4, r4, f2, 118
V_ADD_VF r4, r4, f2, 119
V_MUL_VV r4, r4, r0, 116
V_MUL_VV r4, r4, r0, 117
V_MUL_VV r4, r4, r0, 118
V_MUL_VV r4, r4, r0, 119
V_EXP_V r4, r4, 116
V_EXP_V r4, r4, 117
V_EXP_V r4, r4, 118
V_EXP_V r4, r4, 119
V_ADD_VF r4, r4, f3, 116
V_ADD_VF r4, r4, f3, 117
V_ADD_VF r4, r4, f3, 118
V_ADD_VF r4, r4, f3, 119
V_RECI_V r4, r4, 116
V_RECI_V r4, r4, 117
V_RECI_V r4, r4, 118
V_RECI_V r4, r4, 119
V_MUL_VV r0, r4, r0, 116
V_MUL_VV r0, r4, r0, 117
V_MUL_VV r0, r4, r0, 118
V_MUL_VV r0, r4, r0, 119
V_MUL_VV r4, r0, r0, 120
V_MUL_VV r4, r0, r0, 121
V_MUL_VV r4, r0, r0, 122
V_MUL_VV r4, r0, r0, 123
V_MUL_VF r4, r4, f1, 120
V_MUL_VF r4, r4, f1, 121
V_MUL_VF r4, r4, f1, 122
V_MUL_VF r4, r4, f1, 123
V_ADD_VF r4, r4, f2, 120
V_ADD_VF r4, r4, f2, 121
V_ADD_VF r4, r4, f2, 122
V_ADD_VF r4, r4, f2, 123
V_MUL_VV r4, r4, r0, 120
V_MUL_VV r4, r4, r0, 121
V_MUL_VV r4, r4, r0, 122
V_MUL_VV r4, r4, r0, 123
V_EXP_V r4, r4, 120
V_EXP_V r4, r4, 121
V_EXP_V r4, r4, 122
V_EXP_V r4, r4, 123
V_ADD_VF r4, r4, f3, 120
V_ADD_VF r4, r4, f3, 121
V_ADD_VF r4, r4, f3, 122
V_ADD_VF r4, r4, f3, 123
V_RECI_V r4, r4, 120
V_RECI_V r4, r4, 121
V_RECI_V r4, r4, 122
V_RECI_V r4, r4, 123
V_MUL_VV r0, r4, r0, 120
V_MUL_VV r0, r4, r0, 121
V_MUL_VV r0, r4, r0, 122
V_MUL_VV r0, r4, r0, 123
S_LI r3, 116
S_LI r2, ADDR_Y + 116 * ROW_BYTES
H_STORE_V r3, r2, r1, 8
V_MUL_VV r4, r0, r0, 124
V_MUL_VV r4, r0, r0, 125
V_MUL_VV r4, r0, r0, 126
V_MUL_VV r4, r0, r0, 127
V_MUL_VF r4, r4, f1, 124
V_MUL_VF r4, r4, f1, 125
V_MUL_VF r4, r4, f1, 126
V_MUL_VF r4, r4, f1, 127
V_ADD_VF r4, r4, f2, 124
V_ADD_VF r4, r4, f2, 125
V_ADD_VF r4, r4, f2, 126
V_ADD_VF r4, r4, f2, 127
V_MUL_VV r4, r4, r0, 124
V_MUL_VV r4, r4, r0, 125
V_MUL_VV r4, r4, r0, 126
V_MUL_VV r4, r4, r0, 127
V_EXP_V r4, r4, 124
V_EXP_V r4, r4, 125
V_EXP_V r4, r4, 126
V_EXP_V r4, r4, 127
V_ADD_VF r4, r4, f3, 124
V_ADD_VF r4, r4, f3, 125
V_ADD_VF r4, r4, f3, 126
V_ADD_VF r4, r4, f3, 127
V_RECI_V r4, r4, 124
V_RECI_V r4, r4, 125
V_RECI_V r4, r4, 126
V_RECI_V r4, r4, 127
V_MUL_VV r0, r4, r0, 124
V_MUL_VV r0, r4, r0, 125
V_MUL_VV r0, r4, r0, 126
V_MUL_VV r0, r4, r0, 127
S_LI r3, 124
S_LI r2, ADDR_Y + 124 * ROW_BYTES
H_STORE_V r3, r2, r1, 4
C_HALT
