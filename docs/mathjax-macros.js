/* MathJax 2 configuration added to every page (Doxyfile MATHJAX_CODEFILE).
 * tools/doxyhelp tex rewrites the TeX command \dot in C sources to \cldot
 * before Doxygen reads them: Doxygen 1.9.4's preprocessor takes "\dot" in a
 * comment, even inside \f[ \f], for the start of a graphviz block and stops
 * expanding macros (CL_FN) for the rest of the file. */
/* The equations of the larger models (tools/model-pages) pass MathJax 2's
 * default 5 KiB macro-expansion buffer: 256 KiB. */
MathJax.Hub.Config({ TeX: { MAXBUFFER: 256 * 1024, Macros: { cldot: ["\\dot{#1}", 1] } } });
