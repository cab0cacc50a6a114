import { BerthError } from './errors.js';

export interface PageRequest {
  number: number;
  size: number;
}

export interface Paged<T> {
  items: T[];
  total: number;
  page: PageRequest;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Parses `page[number]` and `page[size]` as HCP Terraform does (default 20, at most 100). */
export function parsePage(number: string | undefined, size: string | undefined): PageRequest {
  let pageSize = DEFAULT_PAGE_SIZE;
  if (size !== undefined && size !== '') {
    pageSize = Number(size);
    if (!/^\d+$/.test(size) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new BerthError([
        {
          status: 422,
          title: 'invalid attribute',
          detail: 'page[size] must be between 1 and 100',
          parameter: 'page[size]',
        },
      ]);
    }
  }
  let pageNumber = 1;
  if (number !== undefined && number !== '') {
    pageNumber = Number(number);
    if (!/^\d+$/.test(number) || pageNumber < 1 || !Number.isSafeInteger(pageNumber)) {
      throw new BerthError([
        {
          status: 422,
          title: 'invalid attribute',
          detail: 'page[number] must be a positive integer',
          parameter: 'page[number]',
        },
      ]);
    }
  }
  return { number: pageNumber, size: pageSize };
}

export function offsetOf(page: PageRequest): number {
  return (page.number - 1) * page.size;
}

export function totalPages(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}
