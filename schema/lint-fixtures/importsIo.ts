// Lint fixture (eslint.config.test.ts): schema imports no IO.
import fs from "node:fs";
import pg from "pg";
import express from "express";
import { Room } from "@colyseus/core";

export const io = [fs, pg, express, Room];
