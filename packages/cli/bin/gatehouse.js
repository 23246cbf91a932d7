#!/usr/bin/env node
// The installed `gatehouse` command: runs the built CLI (no transpiling at start).
import { main } from "../dist/main.js";

process.exitCode = await main(process.argv.slice(2));
