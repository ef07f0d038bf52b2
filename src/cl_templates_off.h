/* Undo cl_templates_on.h. */
#undef CL_SUFFIX
#undef cl_real
#undef cl_rptr
#undef cl_rsrc
#undef CL_FN
#undef CL_T
