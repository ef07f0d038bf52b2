/* Undo cl_templates_on.h. */
#undef CL_SUFFIX
#undef real_t
#undef rptr
#undef rsrc
#undef CL_FN
#undef CL_T
