#!/bin/sh
echo "demo: rdmadump is not built yet"
exit 2
