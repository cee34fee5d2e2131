#!/bin/sh
# snippet: launch
exec ./pipe "$@"
# end snippet
